import { library } from '../../tsup.shared.js';

export default library({ entry: { index: 'src/index.ts', failures: 'src/failures-entry.ts', request: 'src/request.ts', hosts: 'src/hosts.ts' } });

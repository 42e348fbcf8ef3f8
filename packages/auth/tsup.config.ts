import { library } from '../../tsup.shared.js';

export default library({ entry: { index: 'src/index.ts', protocol: 'src/protocol.ts', node: 'src/node/index.ts' } });

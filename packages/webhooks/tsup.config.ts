import { library } from '../../tsup.shared.js';

export default library({ entry: { index: 'src/index.ts', adapter: 'src/adapter-entry.ts', testing: 'src/testing.ts', router: 'src/router-entry.ts', otel: 'src/otel-entry.ts', queue: 'src/queue-entry.ts', node: 'src/node/index.ts' } });

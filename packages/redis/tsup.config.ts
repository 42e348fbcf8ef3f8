import { library } from '../../tsup.shared.js';

export default library({ entry: ['src/index.ts', 'src/testing.ts'] });

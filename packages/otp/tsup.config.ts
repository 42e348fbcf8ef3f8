import { library } from '../../tsup.shared.js';

export default library({ entry: ['src/index.ts', 'src/phone.ts', 'src/redis.ts', 'src/verify-api.ts'] });

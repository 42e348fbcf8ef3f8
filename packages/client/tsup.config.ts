import { library } from '../../tsup.shared.js';
import pkg from './package.json' with { type: 'json' };

export default library({ define: { __VERSION__: JSON.stringify(pkg.version) } });

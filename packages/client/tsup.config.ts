import { library } from '../../tsup.shared.js';
import pkg from './package.json' with { type: 'json' };

export default library({ entry: { index: 'src/index.ts', node: 'src/node/index.ts' }, define: { __VERSION__: JSON.stringify(pkg.version) } });

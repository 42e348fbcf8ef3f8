import { library } from '../../tsup.shared.js';
import pkg from './package.json' with { type: 'json' };

// `#platform` stays an import: package.json "imports" picks the Node file or the portable one at
// run time (or at the user's bundle time), by export conditions.
export default library({
  entry: { index: 'src/index.ts', idempotency: 'src/idempotency.ts', node: 'src/node/index.ts', platform: 'src/platform.ts', 'platform-node': 'src/node/platform.ts' },
  external: ['#platform'],
  define: { __VERSION__: JSON.stringify(pkg.version) },
  // import.meta.url in the CommonJS build (where the proxy agent is required from).
  shims: true,
});

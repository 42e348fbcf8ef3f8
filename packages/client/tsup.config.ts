import { library } from '../../tsup.shared.js';
import pkg from './package.json' with { type: 'json' };

const define = { __VERSION__: JSON.stringify(pkg.version) };

// `#platform` stays an import: package.json "imports" picks the Node file or the portable one at
// run time (or at the user's bundle time), by export conditions.
// `otel` is built on its own (no chunk shared with the other entries): the small pieces it reuses
// (the path mask) are copied into it, so the client's own bundles stay as they are without it.
export default [
  library({
    entry: { index: 'src/index.ts', idempotency: 'src/idempotency.ts', volume: 'src/volume.ts', node: 'src/node/index.ts', platform: 'src/platform.ts', 'platform-node': 'src/node/platform.ts' },
    external: ['#platform'],
    define,
    // One file per entry, as in the CommonJS build: an ESM import loads index.js and the platform
    // file, not a graph of shared chunks (each one more module to resolve and link at cold start).
    // What entries share across files is keyed by Symbol.for and the error brand, as in CommonJS.
    splitting: false,
    // import.meta.url in the CommonJS build (where the proxy agent is required from).
    shims: true,
    // The otel entry's code is the other build's; its declarations are made here (their cleaning would race).
    clean: ['!**/otel.*'],
    dts: { entry: { index: 'src/index.ts', idempotency: 'src/idempotency.ts', volume: 'src/volume.ts', node: 'src/node/index.ts', platform: 'src/platform.ts', 'platform-node': 'src/node/platform.ts', otel: 'src/otel-entry.ts' } },
  }),
  library({ entry: { otel: 'src/otel-entry.ts' }, define, clean: false, dts: false }),
];

import { library } from '../../tsup.shared.js';

// `#hashes` stays an import: package.json "imports" picks node:crypto (hashes-node) or
// @noble/hashes (hashes) at run time, or at the user's bundle time, by export conditions.
// @noble/hashes 2 ships ESM only: the CJS build carries it (see docs/decisions.md).
export default library({
  entry: { index: 'src/index.ts', protocol: 'src/protocol.ts', node: 'src/node/index.ts', hashes: 'src/hashes.ts', 'hashes-node': 'src/node/hashes.ts' },
  external: ['#hashes'],
  esmOnlyDependencies: ['@noble/hashes'],
});

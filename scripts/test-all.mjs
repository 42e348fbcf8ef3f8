#!/usr/bin/env node
// The full suite behind `npm test`: build, lint, typecheck, every package's vitest project,
// the published-shape checks of every package, and the cross-runtime checks. Each vitest test
// counts as one, each other step as one. Ends with `ci: N passed, N failed`.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, '.ci-out');
mkdirSync(out, { recursive: true });
const only = process.argv.slice(2);
let passed = 0;
let failed = 0;
const failures = [];

/** Counts a step's outcome and prints its line (and, when it failed quietly, its output). */
function record(name, ok, started, output) {
  if (ok) passed++;
  else {
    failed++;
    failures.push(name);
    if (output !== undefined) process.stdout.write(output);
  }
  console.log(`${ok ? 'PASS' : 'FAIL'} ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return ok;
}

const envOf = (options) => ({ ...process.env, TURBO_TELEMETRY_DISABLED: '1', ...options.env });

function step(name, command, args, options = {}) {
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: options.cwd ?? root, stdio: options.quiet ? 'pipe' : 'inherit', encoding: 'utf8', env: envOf(options), timeout: options.timeout ?? 300_000 });
  return record(name, result.status === 0, started, options.quiet ? `${result.stdout ?? ''}${result.stderr ?? ''}` : undefined);
}

/**
 * Independent quiet steps, two at a time (the machine kind has 2 cores): each counts as one, as
 * with `step`; the output of a failed one is printed whole, after it ends.
 */
async function parallelSteps(list, width = 2) {
  const run = ([name, command, args, options = {}]) =>
    new Promise((resolve) => {
      const started = Date.now();
      const child = spawn(command, args, { cwd: options.cwd ?? root, env: envOf(options) });
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
      const timer = setTimeout(() => child.kill('SIGKILL'), options.timeout ?? 300_000);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve(record(name, code === 0, started, output));
      });
    });
  const queue = [...list];
  await Promise.all(Array.from({ length: width }, async () => {
    while (queue.length) await run(queue.shift());
  }));
}

const wanted = (name) => only.length === 0 || only.includes(name);

if (!step('build', 'pnpm', ['turbo', 'run', 'build', '--output-logs=errors-only'])) {
  console.log(`ci: ${passed} passed, ${failed + 1} failed`);
  process.exit(1);
}
if (wanted('lint')) step('lint (eslint, incl. no node:* / Buffer in portable packages)', 'pnpm', ['exec', 'eslint', '.']);
if (wanted('typecheck')) step('typecheck', 'pnpm', ['turbo', 'run', 'typecheck', '--output-logs=errors-only']);
// A user's project under each module resolution, importing every public entry of every package,
// compiled against the built declarations (testing/consumers/, scripts/consumers.mjs).
if (wanted('typecheck') || wanted('consumers')) {
  step('consumer fixtures import every public entry point', 'node', ['scripts/consumers.mjs', 'coverage'], { quiet: true });
  await parallelSteps(['node10', 'node16-cjs', 'nodenext', 'bundler'].map((mode) => [`consumer types: ${mode}`, 'node', ['scripts/consumers.mjs', mode]]));
}
// The public API of every entry point, pinned by its API report (packages/*/etc/*.api.md).
// One item per entry point; a report that differs fails (pnpm api:update, review, commit).
if (wanted('api')) summarised('scripts/api.mjs', 'api', 'API reports differ from the build (pnpm api:check)');
if (wanted('changesets')) step('changesets parse (changeset status)', 'pnpm', ['exec', 'changeset', 'status'], { quiet: true });
// API reference from the TSDoc comments of every public entry (typedoc.json): warnings, missing
// docs of functions and broken links fail the step. Output in .ci-out/api-docs (npm run docs:api).
if (wanted('apidocs')) step('API reference (typedoc, warnings are errors)', 'pnpm', ['exec', 'typedoc'], { quiet: true });
// Size budget per entry point (min+gz with dependencies); the message names the entry, its size and budget.
if (wanted('size')) step('size budgets per entry point (scripts/size.mjs)', 'node', ['scripts/size.mjs'], { quiet: true });

// The other runtimes (Node 22/24, Deno, Bun, workerd) into .tools/, before the tests that run them.
if (wanted('unit') || wanted('runtimes')) step('runtimes installed (.tools/)', 'node', ['scripts/runtimes.mjs', '--install'], { quiet: true, timeout: 300_000 });

if (wanted('unit')) {
  const report = join(out, 'vitest.json');
  // VITEST_TYPECHECK=off: the type tests (test/*.test-d.ts) are compiled by the typecheck step
  // above (each package's tsc includes test/), and a failing expectTypeOf is a compile error there;
  // vitest's typecheck mode would run tsc over every package a second time (~55 s of CI).
  // `pnpm test` in a package folder still runs them as vitest type tests.
  const result = spawnSync('pnpm', ['exec', 'vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], { cwd: root, stdio: 'inherit', env: { ...process.env, VITEST_TYPECHECK: 'off' } });
  if (existsSync(report)) {
    const json = JSON.parse(readFileSync(report, 'utf8'));
    passed += json.numPassedTests;
    failed += json.numFailedTests;
    for (const file of json.testResults) for (const t of file.assertionResults) if (t.status === 'failed') failures.push(t.fullName);
    if (json.numTotalTests === 0 || (result.status !== 0 && json.numFailedTests === 0)) {
      failed++;
      failures.push('vitest run (no tests, or a suite failed to load)');
    }
  } else {
    failed++;
    failures.push('vitest run (no report)');
  }
}

// The main job, as `npm run demo` runs it (exits non-zero when anything misbehaves).
if (wanted('demo')) step('demo: the end-to-end flow against the emulator', 'node', ['demo/demo.mjs'], { quiet: true, timeout: 120_000 });

// The examples (examples/*, see examples/README.md): each standalone app run with the one command
// its README gives, on the built packages, against the emulator; each exits non-zero on any failure.
// Bun and Deno are the ones in .tools/runtimes: a missing runtime is a failure, never a skip.
if (wanted('examples')) {
  const { delimiter } = await import('node:path');
  const bin = join(root, '.tools', 'runtimes', 'node_modules', '.bin');
  if (!(wanted('unit') || wanted('runtimes'))) step('runtimes installed (.tools/)', 'node', ['scripts/runtimes.mjs', '--install'], { quiet: true, timeout: 300_000 });
  const env = { PATH: `${bin}${delimiter}${process.env.PATH}`, DENO_DIR: join(root, '.tools', 'deno-cache'), NO_COLOR: '1' };
  const examples = [
    ['express', 'pnpm start'],
    ['fastify', 'pnpm start'],
    ['hono-node', 'pnpm start'],
    ['bun', 'pnpm start', 'bun'],
    ['deno', 'pnpm start', 'deno'],
    ['cloudflare-worker', 'pnpm start && pnpm start --wrangler'], // miniflare, then wrangler dev
  ];
  for (const [name, command, runtime] of examples) {
    const title = `example: ${name} (${command})`;
    if (runtime && !existsSync(join(bin, runtime))) {
      failed++;
      failures.push(`${title}: ${runtime} not found in .tools/runtimes (node scripts/runtimes.mjs --install)`);
      console.log(`FAIL ${title}: ${runtime} not found`);
    } else step(title, 'sh', ['-c', command], { cwd: join(root, 'examples', name), quiet: true, timeout: 90_000, env });
  }
}

// Published shape: publint --strict, attw --pack, and both module systems in Node.
if (wanted('packages')) {
  const checks = [];
  for (const dir of readdirSync(join(root, 'packages'))) {
    const pkgDir = join(root, 'packages', dir);
    const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
    if (pkg.private) continue;
    checks.push([`${pkg.name}: publint --strict`, 'pnpm', ['exec', 'publint', '--strict', pkgDir]]);
    // The strict profile: node10 too (every subpath resolves there through "typesVersions").
    checks.push([`${pkg.name}: attw --pack (node10, node16 CJS/ESM, bundler)`, 'pnpm', ['exec', 'attw', '--pack', pkgDir, '--profile', 'strict', '--format', 'table-flipped']]);
    const check = `if (!Object.keys(m).length) throw new Error('no exports')`;
    checks.push([`${pkg.name}: ESM import in Node`, 'node', ['--input-type=module', '-e', `const m = await import(${JSON.stringify(pkg.name)}); ${check}`], { cwd: pkgDir }]);
    checks.push([`${pkg.name}: CJS require in Node`, 'node', ['-e', `const m = require(${JSON.stringify(pkg.name)}); ${check}`], { cwd: pkgDir }]);
  }
  // attw packs each package (npm pack into a temp dir): independent, so two at a time.
  await parallelSteps(checks);
  // CommonJS that loads anywhere: every .cjs entry required with require(esm) off, and without the
  // globals Jest's jsdom environment lacks; no require() of an ES-only package (scripts/cjs-check.mjs).
  summarised('scripts/cjs-check.mjs', 'cjs-check', 'CommonJS entries (node scripts/cjs-check.mjs)');
}

// Cross-runtime checks import the built packages in other runtimes; each script ends with
// `<label>: N passed, N failed`, and every check counts as one.
function summarised(script, label, failure) {
  const result = spawnSync('node', [script], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', timeout: 300_000 });
  process.stdout.write(result.stdout ?? '');
  const summary = new RegExp(`${label}: (\\d+) passed, (\\d+) failed`).exec(result.stdout ?? '');
  if (summary) {
    passed += Number(summary[1]);
    failed += Number(summary[2]);
  }
  if (!summary || result.status !== 0) {
    if (!summary) failed++;
    failures.push(failure);
  }
}
// Docs whose code runs: every code block of every README compiled against the built packages
// (strict consumer settings), the ```ts run blocks run against the in-process emulator, install
// lines checked; each block counts as one (scripts/readme-snippets.mjs, CONTRIBUTING.md).
if (wanted('snippets')) summarised('scripts/readme-snippets.mjs', 'readme-snippets', 'README snippets (node scripts/readme-snippets.mjs)');
// Release dry run: `changeset version` in a temp copy; a CHANGELOG.md per package with pending
// changesets, the real tree untouched (scripts/changelog-dry-run.mjs; each check counts as one).
if (wanted('changelog')) summarised('scripts/changelog-dry-run.mjs', 'changelog', 'changelog dry run (node scripts/changelog-dry-run.mjs)');
if (wanted('runtimes') && existsSync(join(root, 'scripts', 'runtimes.mjs'))) summarised('scripts/runtimes.mjs', 'runtimes', 'cross-runtime checks');
// @x/hono served by Node, Deno, Bun and workerd (after runtimes.mjs, which installs them).
if (wanted('runtimes') && existsSync(join(root, 'scripts', 'hono-runtimes.mjs'))) summarised('scripts/hono-runtimes.mjs', 'hono-runtimes', '@x/hono in Node, Deno, Bun and workerd');

if (failures.length) console.log(`\nFailed:\n${failures.map((f) => `  - ${f}`).join('\n')}`);
console.log(`ci: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);

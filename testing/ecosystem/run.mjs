#!/usr/bin/env node
// Ecosystem tests: the built packages as a user gets them. Each package is packed (pnpm pack
// rewrites workspace:^ to the version) and the tarballs are installed with npm into fresh
// projects in the OS temp directory, outside the workspace, so that nothing resolves through the
// repository's node_modules. Each project runs its own runner (projects/*/package.json).
//
//   node testing/ecosystem/run.mjs                  every step
//   node testing/ecosystem/run.mjs jest-node msw    some steps (the projects they need are installed)
//
// Run the build first (npm test does). Ends with `ecosystem: N passed, N failed` (in the suite,
// ecosystem.test.ts makes each counted item a test); the output of a
// failed step is printed whole. ECOSYSTEM_DIR=<dir> puts the projects there (default: a folder
// in the temp directory, removed after a run that passed).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const projects = fileURLToPath(new URL('projects', import.meta.url));

/** One step per runner; `project` is the folder under projects/ it runs in, `script` its npm script. */
const STEPS = [
  // In the order they start: the projects that take longest first.
  { name: 'jest-node', title: 'Jest 30 + ts-jest, CommonJS, testEnvironment node', project: 'jest', script: 'test:node' },
  { name: 'jest-jsdom', title: 'Jest 30 + ts-jest, CommonJS, jest-environment-jsdom', project: 'jest', script: 'test:jsdom' },
  { name: 'jest-fixed-jsdom', title: "Jest 30 + ts-jest, CommonJS, jsdom with the client README's one line (jest-fixed-jsdom)", project: 'jest', script: 'test:fixed-jsdom' },
  { name: 'nestjs', title: 'NestJS (platform-express, rawBody: true) receiving signed callbacks', project: 'nestjs', script: 'test' },
  { name: 'msw3', title: 'msw 3 on Node 22 (the project\'s node package): setupServer with the client, @x/emulator/msw serving telesignsdk (ESM and CommonJS)', project: 'msw3', script: 'test' },
  { name: 'node-test', title: 'node --test, ESM and CommonJS files', project: 'node', script: 'test' },
  { name: 'msw', title: 'msw 2 setupServer (node --test, ESM and CommonJS)', project: 'node', script: 'test:msw' },
  { name: 'nock', title: 'nock 14 with disableNetConnect() (node --test, ESM and CommonJS)', project: 'node', script: 'test:nock' },
  { name: 'vitest', title: 'Vitest (ESM), msw setupServer', project: 'vitest', script: 'test' },
  // The OTP sign-in tests of packages/emulator/TESTING.md, as written there (see guideBlocks).
  { name: 'guide-jest', title: "TESTING.md's Jest test: @x/emulator/jest, ts-jest, CommonJS", project: 'jest', script: 'test:guide' },
  { name: 'guide-node-test', title: "TESTING.md's node:test and msw tests (node --test)", project: 'node', script: 'test:guide' },
  { name: 'msw-official', title: '@x/emulator/msw serving the official telesignsdk (node --test, ESM and CommonJS)', project: 'node', script: 'test:msw-official' },
  { name: 'npx', title: 'npx @x/emulator in a project that installed it: the CLI is the package\'s command, and its server answers', project: 'node', script: 'test:npx' },
  { name: 'guide-vitest', title: "TESTING.md's Vitest test: @x/emulator/vitest", project: 'vitest', script: 'test:guide' },
];

/**
 * The code blocks of the emulator's TESTING.md that a project runs: each fenced block right after
 * a line `<!-- ecosystem: <project> <path> -->` is written to <path> in that project, so the guide's
 * tests run as a reader copies them.
 */
function guideBlocks() {
  const lines = readFileSync(join(root, 'packages', 'emulator', 'TESTING.md'), 'utf8').split('\n');
  const found = [];
  for (let i = 0; i < lines.length; i++) {
    const mark = /^<!-- ecosystem: (\S+) (\S+) -->$/.exec(lines[i]);
    if (!mark || !/^```/.test(lines[i + 1] ?? '')) continue;
    const end = lines.findIndex((line, j) => j > i + 1 && /^```\s*$/.test(line));
    if (end < 0) throw new Error(`ecosystem: TESTING.md:${i + 2}: unclosed code fence`);
    found.push({ project: mark[1], path: mark[2], text: `${lines.slice(i + 2, end).join('\n')}\n` });
  }
  return found;
}

// --json FILE: also write each counted item (name, ok, output) as JSON (ecosystem.test.ts reads it).
const jsonArg = process.argv.indexOf('--json');
const jsonFile = jsonArg > 0 ? process.argv.splice(jsonArg, 2)[1] : undefined;
const results = [];
const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !STEPS.some((s) => s.name === name));
if (unknown.length) {
  console.error(`ecosystem: no step ${unknown.join(', ')} (steps: ${STEPS.map((s) => s.name).join(', ')})`);
  process.exit(2);
}
const steps = STEPS.filter((s) => wanted.length === 0 || wanted.includes(s.name));

let passed = 0;
let failed = 0;

/** Runs a command; resolves with its exit code and its output (stdout and stderr interleaved). */
function run(command, args, cwd, timeout = 180_000) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', CI: '1' } });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => {
      output += `\n(killed after ${timeout / 1000} s)\n`;
      child.kill('SIGKILL');
    }, timeout);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

function report(name, ok, started, output) {
  results.push({ name, ok, output: ok ? '' : output });
  if (ok) passed++;
  else {
    failed++;
    process.stdout.write(`--- ${name} ---\n${output}\n`);
  }
  console.log(`${ok ? 'PASS' : 'FAIL'} ecosystem: ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return ok;
}

function finish() {
  if (jsonFile) writeFileSync(jsonFile, JSON.stringify(results));
  console.log(`ecosystem: ${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

for (const dir of readdirSync(join(root, 'packages'))) {
  const pkg = JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8'));
  if (!pkg.private && !existsSync(join(root, 'packages', dir, 'dist'))) {
    console.error(`ecosystem: ${pkg.name} is not built (packages/${dir}/dist is missing): run pnpm turbo run build first.`);
    report('packages built', false, Date.now(), '');
    finish();
  }
}

// One folder per checkout, emptied at each run (a failed run's projects stay there to look at).
const work = process.env.ECOSYSTEM_DIR ?? join(tmpdir(), `x-sdk-ecosystem-${createHash('sha256').update(root).digest('hex').slice(0, 8)}`);
const tarballs = join(work, 'tarballs');
rmSync(tarballs, { recursive: true, force: true });
mkdirSync(tarballs, { recursive: true });

// 1. Pack every public package (one pnpm process; workspace:^ becomes ^<version>).
let started = Date.now();
const packed = await run('pnpm', ['-r', '--filter', './packages/*', 'pack', '--pack-destination', tarballs], root);
/** @type {Record<string, string>} package name -> file: spec of its tarball */
const specs = {};
for (const dir of readdirSync(join(root, 'packages'))) {
  const pkg = JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8'));
  const file = join(tarballs, `${pkg.name.replace('@', '').replace('/', '-')}-${pkg.version}.tgz`);
  if (!pkg.private && existsSync(file)) specs[pkg.name] = `file:${file}`;
}
if (!report('packages packed (pnpm pack)', packed.code === 0 && Object.keys(specs).length > 0, started, packed.output)) finish();

// 2. Each project is installed once: its template copied into a fresh folder, every @x/* dependency
//    pointed at its tarball, and "overrides" so that the packages' own @x/* dependencies resolve
//    to the tarballs too (they are not on the registry). One npm cache for all.
/** Copies a project's template (and shared/, the cases several projects run) and writes its package.json with the tarballs; the folder. */
function prepare(project) {
  const dir = join(work, project);
  rmSync(dir, { recursive: true, force: true });
  cpSync(join(projects, project), dir, { recursive: true });
  cpSync(fileURLToPath(new URL('shared', import.meta.url)), join(dir, 'shared'), { recursive: true });
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  for (const name of Object.keys(pkg.dependencies ?? {})) {
    if (!name.startsWith('@x/')) continue;
    if (!specs[name]) throw new Error(`ecosystem: projects/${project} depends on ${name}, which is not a package of this repository`);
    pkg.dependencies[name] = specs[name];
  }
  pkg.overrides = { ...specs };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  for (const block of guideBlocks().filter((b) => b.project === project)) {
    mkdirSync(dirname(join(dir, block.path)), { recursive: true });
    writeFileSync(join(dir, block.path), block.text);
  }
  return dir;
}

/** Installs a project, then runs its steps one after the other. */
async function runProject(project) {
  const begun = Date.now();
  const dir = prepare(project);
  const install = await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--no-package-lock', '--loglevel=error'], dir, 300_000);
  const ok = report(`${project}: npm install`, install.code === 0, begun, install.output);
  for (const s of steps.filter((step) => step.project === project)) {
    const title = `${s.name}: ${s.title}`;
    if (!ok) {
      report(title, false, Date.now(), `(not run: ${project} did not install)`);
      continue;
    }
    const stepStarted = Date.now();
    const result = await run('npm', ['run', '--silent', s.script], dir);
    // Passed only if tests ran: Jest and Vitest print "Tests: N passed", node --test "ℹ pass N".
    const ran = /Tests:?\s+(?:\d+ \w+[,|] *)*[1-9]\d* passed|ℹ pass [1-9]/.test(result.output);
    report(title, result.code === 0 && ran, stepStarted, ran ? result.output : `${result.output}\n(no test ran)`);
  }
}

// 3. Two projects at a time (the machine kind has 2 cores), the longest first; within a project,
//    its steps one at a time after its install.
const queue = [...new Set(steps.map((s) => s.project))];
await Promise.all([0, 1].map(async () => {
  while (queue.length) await runProject(queue.shift());
}));

if (failed === 0 && !process.env.ECOSYSTEM_DIR) rmSync(work, { recursive: true, force: true });
else console.log(`ecosystem: the projects are in ${work}`);
finish();

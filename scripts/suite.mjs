#!/usr/bin/env node
// The full suite behind `npm test`: turbo runs the task graph (turbo.json), cached; the counts
// come from the runners' own reports. Each package: build, typecheck, test (its vitest project),
// check (publint, attw, API reports, loading in Node). The repository: lint, docs (README and
// @example blocks, the API reference), release (size budgets, changesets, consumer fixture),
// runtimes (the built packages in Node 20/22/24, Deno, Bun, workerd, Chromium), examples (the
// demo and the example apps) and ecosystem (fresh projects in other test runners).
//
// A vitest task counts its tests (its JSON report, restored by turbo on a cache hit); any other
// task counts as one. Ends with `ci: N passed, N failed`.
//   node scripts/suite.mjs                 everything
//   node scripts/suite.mjs client [hono]   only these packages' tasks (and the builds they need)
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const only = process.argv.slice(2).map((name) => (name.startsWith('@') ? name : `@x/${name}`));
const PACKAGE_TASKS = ['build', 'typecheck', 'test', 'check'];
const ROOT_TASKS = ['lint', 'docs', 'release', 'runtimes', 'examples', 'ecosystem'];
const rootTasks = JSON.parse(readFileSync(join(root, 'turbo.json'), 'utf8')).tasks;
const tasks = only.length ? PACKAGE_TASKS : [...PACKAGE_TASKS, ...ROOT_TASKS.filter((task) => `//#${task}` in rootTasks)];

// Reports of an earlier run must not be counted: turbo restores the ones of cached tasks.
const reportDirs = [root, ...['packages'].flatMap((parent) => readdirSync(join(root, parent)).map((dir) => join(root, parent, dir)))];
for (const dir of reportDirs) rmSync(join(dir, '.reports'), { recursive: true, force: true });
const runs = join(root, '.turbo', 'runs');
const before = new Set(existsSync(runs) ? readdirSync(runs) : []);

const args = ['turbo', 'run', ...tasks, '--continue', '--summarize', '--concurrency=3', '--output-logs=errors-only', ...only.map((name) => `--filter=${name}`)];
// The type tests (test/*.test-d.ts) are compiled by each package's typecheck task.
const turbo = spawnSync('pnpm', args, { cwd: root, stdio: 'inherit', env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', VITEST_TYPECHECK: 'off' } });

const summaryFile = (existsSync(runs) ? readdirSync(runs) : [])
  .filter((file) => file.endsWith('.json') && !before.has(file))
  .map((file) => join(runs, file))
  .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
if (!summaryFile) {
  console.log(`turbo wrote no run summary (exit ${turbo.status})\nci: 0 passed, 1 failed`);
  process.exit(1);
}

let passed = 0;
let failed = 0;
const failures = [];
const summary = JSON.parse(readFileSync(summaryFile, 'utf8'));
for (const task of summary.tasks) {
  const exitCode = task.execution?.exitCode;
  if (exitCode === undefined && task.cache?.status !== 'HIT') continue; // not run (its dependency failed): counted there
  const ok = (exitCode ?? 0) === 0;
  const reportFile = join(root, task.directory ?? '', '.reports', `${task.task}.json`);
  if (existsSync(reportFile)) {
    const report = JSON.parse(readFileSync(reportFile, 'utf8'));
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    for (const file of report.testResults) for (const test of file.assertionResults) if (test.status === 'failed') failures.push(`${task.taskId}: ${test.fullName}`);
    // A suite that failed to load, or a runner that failed with no failed test, still fails.
    if (report.numTotalTests === 0 || (!ok && report.numFailedTests === 0)) {
      failed++;
      failures.push(`${task.taskId}: ${report.numTotalTests === 0 ? 'no tests ran' : 'a test file failed to load'}`);
    }
  } else if (ok) passed++;
  else {
    failed++;
    failures.push(`${task.taskId}${task.cache?.status === 'HIT' ? '' : ` (exit ${exitCode})`}`);
  }
}

const cached = summary.tasks.filter((task) => task.cache?.status === 'HIT').length;
console.log(`\n${summary.tasks.length} tasks, ${cached} from turbo's cache (${summaryFile.replace(root, '')})`);
if (failures.length) console.log(`Failed:\n${failures.map((f) => `  - ${f}`).join('\n')}`);
console.log(`ci: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 && turbo.status === 0 ? 0 : 1);

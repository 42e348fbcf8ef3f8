// Size budgets per entry point, measured by size-limit (.size-limit.cjs): one test per entry. A row
// fails only over its budget; the headroom of every row (how far above its size its budget is) is printed
// in the test output, so that the trend shows in CI before a budget is reached.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'node_modules', 'size-limit', 'bin.js');
const run = spawnSync(process.execPath, [bin, '--json'], { cwd: root, encoding: 'utf8' });
const start = run.stdout.indexOf('[');
const rows: { name: string; passed: boolean; size: number; sizeLimit: number }[] = start >= 0 ? JSON.parse(run.stdout.slice(start)) : [];
const entries: { name: string }[] = createRequire(import.meta.url)('../../.size-limit.cjs');

/** How far above the row's size its budget is, as a share of the size (negative when over). Budgets are set at least 10% above. */
const headroom = (row: { size: number; sizeLimit: number }) => (row.sizeLimit - row.size) / row.size;

/** The constrained runtimes of the design: signing alone fits in 5.5 KB min+gz. */
const SIGNING_ONLY = '@x/auth: signRequest only';
const SIGNING_ONLY_MAX = 5_500;

// The trend, in CI output: size, budget and headroom of each row, the smallest headroom first.
if (rows.length > 0) {
  const table = [...rows]
    .sort((a, b) => headroom(a) - headroom(b))
    .map((row) => `${(headroom(row) * 100).toFixed(1).padStart(6)}%  ${String(row.size).padStart(7)} B of ${String(row.sizeLimit).padStart(7)} B  ${row.name}`);
  console.log(`Size budgets (min+gz), headroom first:\n${table.join('\n')}`);
}

it('size-limit measured every entry of .size-limit.cjs', () => {
  expect(rows.map((row) => row.name), `${run.stdout}${run.stderr}`).toEqual(entries.map((entry) => entry.name));
});

it(`${SIGNING_ONLY} stays at most ${SIGNING_ONLY_MAX} B min+gz (budget and size)`, () => {
  const row = rows.find((r) => r.name === SIGNING_ONLY);
  expect(row, `no row named ${SIGNING_ONLY} in .size-limit.cjs`).toBeDefined();
  expect(row!.sizeLimit).toBeLessThanOrEqual(SIGNING_ONLY_MAX);
  expect(row!.size).toBeLessThanOrEqual(SIGNING_ONLY_MAX);
});

for (const row of rows) {
  it(`${row.name} within ${row.sizeLimit} B min+gz`, () => {
    expect(
      row.size,
      `${row.name} is ${row.size} B min+gz, over its budget of ${row.sizeLimit} B: make it smaller (a budget is raised only with a decision in docs/decisions.md)`,
    ).toBeLessThanOrEqual(row.sizeLimit);
  });
}

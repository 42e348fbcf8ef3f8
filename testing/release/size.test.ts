// Size budgets per entry point, measured by size-limit (.size-limit.cjs): one test per entry.
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

it('size-limit measured every entry of .size-limit.cjs', () => {
  expect(rows.map((row) => row.name), `${run.stdout}${run.stderr}`).toEqual(entries.map((entry) => entry.name));
});

for (const row of rows) {
  it(`${row.name} within ${row.sizeLimit} B min+gz`, () => {
    expect(row.size, `${row.name} is ${row.size} B min+gz, over its budget of ${row.sizeLimit} B: make it smaller (a budget is raised only with a decision in docs/decisions.md)`).toBeLessThanOrEqual(row.sizeLimit);
  });
}

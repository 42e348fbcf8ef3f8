// The built packages as a user gets them (run.mjs: packed, npm-installed into fresh projects, each
// run by its own runner: Jest CommonJS in node and jsdom, Vitest, node --test, msw, nock, NestJS).
// run.mjs does the work once; each install and each step it counts is one test here.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const report = join(root, '.ci-out', 'ecosystem.json');
mkdirSync(join(root, '.ci-out'), { recursive: true });
const run = spawnSync(process.execPath, ['testing/ecosystem/run.mjs', '--json', report], { cwd: root, encoding: 'utf8', timeout: 900_000 });
let items: { name: string; ok: boolean; output: string }[] = [];
try {
  items = JSON.parse(readFileSync(report, 'utf8'));
} catch {
  items = [];
}

it('the ecosystem run reported its steps', () => {
  expect(items.length, `${run.stdout ?? ''}${run.stderr ?? ''}`).toBeGreaterThan(7);
});

for (const item of items) {
  it(item.name, () => {
    expect(item.ok, item.output).toBe(true);
  });
}

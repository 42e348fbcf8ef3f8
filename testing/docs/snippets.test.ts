// Every README code block and @example block compiled against the built packages (the ```ts run
// ones also run), and every install line checked: scripts/readme-snippets.mjs does the work once,
// each item it reports is one test here.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const report = join(root, '.ci-out', 'snippets.json');
mkdirSync(join(root, '.ci-out'), { recursive: true });
const run = spawnSync(process.execPath, ['scripts/readme-snippets.mjs', '--json', report], { cwd: root, encoding: 'utf8' });
const items: { name: string; errors: string[] }[] = run.error ? [] : JSON.parse(readFileSync(report, 'utf8'));

it('the snippet harness ran and found the docs', () => {
  expect(run.error).toBeUndefined();
  expect(items.length).toBeGreaterThan(50);
});

for (const item of items) {
  it(item.name, () => {
    expect(item.errors, item.errors.join('\n')).toEqual([]);
  });
}

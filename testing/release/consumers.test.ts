// A user's strict TypeScript project importing every public entry point of every package,
// compiled against the built declarations (scripts/consumers.mjs); it also fails when a package
// exports an entry the fixture does not import.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

for (const mode of ['coverage', 'compile']) {
  it(`the strict consumer fixture: ${mode}`, () => {
    const run = spawnSync(process.execPath, ['scripts/consumers.mjs', mode], { cwd: root, encoding: 'utf8' });
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
  });
}

// The pending changesets parse and name packages of the workspace (changeset status).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

it('changeset status reads every pending changeset', () => {
  const run = spawnSync(process.execPath, [join(root, 'node_modules', '@changesets', 'cli', 'bin.js'), 'status'], { cwd: root, encoding: 'utf8' });
  expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
});

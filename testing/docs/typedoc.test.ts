// The API reference from the TSDoc comments of every public entry (typedoc.json): warnings,
// undocumented functions, functions without an @example and broken links fail it.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

it('typedoc builds the API reference without a warning', () => {
  const run = spawnSync(process.execPath, [join(root, 'node_modules', 'typedoc', 'bin', 'typedoc')], { cwd: root, encoding: 'utf8' });
  expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
});

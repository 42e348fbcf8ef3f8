// The API reference from the TSDoc comments of every public entry, in one TypeDoc run
// (typedoc.markdown.json, which extends typedoc.json): warnings, undocumented functions, functions
// without an @example and broken links fail it, and the Markdown it makes must be docs/api/ as
// committed, file for file (what users of the npm packages reach from each README).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const committed = join(root, 'docs', 'api');
const files = (dir: string): string[] =>
  existsSync(dir) ? readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => relative(dir, join(entry.parentPath, entry.name))).sort() : [];

const out = mkdtempSync(join(tmpdir(), 'api-reference-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

it('typedoc builds the API reference without a warning, and it is docs/api file for file (else: pnpm docs:api, and commit docs/api)', () => {
  const run = spawnSync(process.execPath, [join(root, 'node_modules', 'typedoc', 'bin', 'typedoc'), '--options', 'typedoc.markdown.json', '--out', out], { cwd: root, encoding: 'utf8' });
  expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
  expect(files(committed), 'the files of docs/api').toEqual(files(out));
  const stale = files(out).filter((file) => readFileSync(join(out, file), 'utf8') !== readFileSync(join(committed, file), 'utf8'));
  expect(stale, 'pages that differ from what the sources make: run `pnpm docs:api` and commit docs/api').toEqual([]);
});

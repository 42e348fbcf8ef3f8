// The API reference a user of the npm packages can reach: Markdown generated from the TSDoc
// comments (typedoc + typedoc-plugin-markdown, typedoc.markdown.json) and committed in
// docs/api/, one page per public entry point, linked from each package's README with links
// relative to the README (they resolve on GitHub, and on npmjs.com through repository.directory).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Manifest, publicPackages, root } from './workspace.js';

const committed = join(root, 'docs', 'api');
const files = (dir: string): string[] =>
  existsSync(dir) ? readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => relative(dir, join(entry.parentPath, entry.name))).sort() : [];

/** `@x/auth` `.` -> docs/api/auth.md; `./node` -> docs/api/auth/node.md. */
const pageOf = (folder: string, subpath: string) => (subpath === '.' ? `${folder}.md` : `${folder}/${subpath.slice(2)}.md`);
const entriesOf = (manifest: Manifest) => Object.keys((manifest.exports ?? {}) as object).filter((key) => key !== './package.json');

describe('docs/api is the reference the sources make today', () => {
  const out = mkdtempSync(join(tmpdir(), 'api-reference-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  // The docs suite fails on TypeDoc's warnings (an undocumented function, no @example, a broken
  // link); this one asks only whether the committed pages are what the sources make.
  it('typedoc regenerates it file for file (else: pnpm docs:api, and commit docs/api)', () => {
    const run = spawnSync(process.execPath, [join(root, 'node_modules', 'typedoc', 'bin', 'typedoc'), '--options', 'typedoc.markdown.json', '--treatWarningsAsErrors', 'false', '--out', out], { cwd: root, encoding: 'utf8' });
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
    expect(files(committed), 'the files of docs/api').toEqual(files(out));
    const stale = files(out).filter((file) => readFileSync(join(out, file), 'utf8') !== readFileSync(join(committed, file), 'utf8'));
    expect(stale, 'pages that differ from what the sources make: run `pnpm docs:api` and commit docs/api').toEqual([]);
  });
});

describe.each(publicPackages())('$manifest.name', ({ folder, dir, manifest }) => {
  const readme = readFileSync(join(dir, 'README.md'), 'utf8');
  const row = readme.split('\n').find((line) => line.startsWith('| API reference |')) ?? '';

  it('every public entry point has a page in docs/api', () => {
    for (const subpath of entriesOf(manifest)) expect(existsSync(join(committed, pageOf(folder, subpath))), `${manifest.name}${subpath.slice(1)}: docs/api/${pageOf(folder, subpath)} (add its file to typedoc.json's entryPoints)`).toBe(true);
  });

  it('its README links each entry point to its page, relative to the README', () => {
    expect(row, 'a "| API reference |" row in the README table').not.toBe('');
    const links = [...row.matchAll(/\]\(([^)]+)\)/g)].map((match) => match[1]!);
    for (const link of links) {
      expect(link, 'a link relative to the README').toMatch(/^\.\.\/\.\.\/docs\/api\//);
      expect(existsSync(resolve(dirname(join(dir, 'README.md')), link.split('#')[0]!)), link).toBe(true);
    }
    for (const subpath of entriesOf(manifest)) expect(links, `${manifest.name}${subpath.slice(1)}`).toContain(`../../docs/api/${pageOf(folder, subpath)}`);
  });

  it('never sends a user of the npm package to a script of this repository', () => {
    expect(readme).not.toMatch(/docs:api|\.ci-out/);
  });
});

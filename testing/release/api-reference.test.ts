// The API reference a user of the npm packages can reach: Markdown committed in docs/api/ (the
// docs task regenerates it and compares), one page per public entry point, linked from each
// package's README with links relative to the README (they resolve on GitHub, and on npmjs.com
// through repository.directory).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Manifest, publicPackages, root } from './workspace.js';

const committed = join(root, 'docs', 'api');

/** `@x/auth` `.` -> docs/api/auth.md; `./node` -> docs/api/auth/node.md. */
const pageOf = (folder: string, subpath: string) => (subpath === '.' ? `${folder}.md` : `${folder}/${subpath.slice(2)}.md`);
const entriesOf = (manifest: Manifest) => Object.keys((manifest.exports ?? {}) as object).filter((key) => key !== './package.json');

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

// What npm publishes: every local file the README shows or links (the inspector's screenshot)
// is in the package, as npm pack lists it.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('the published package', () => {
  it('holds every local file the README references', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const local = [...readme.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)].map((m) => m[1]!).filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
    // Links out of the package (the API reference in the repository's docs/) are read on the repository, not in the tarball.
    const inPackage = local.filter((target) => !target.startsWith('../'));
    expect(local).toContain('docs/inspector.png');
    const packed = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })) as Array<{ files: Array<{ path: string }> }>;
    const files = new Set(packed[0]!.files.map((f) => f.path));
    expect(inPackage.filter((target) => !files.has(target.replace(/^\.\//, '')))).toEqual([]);
  });
});

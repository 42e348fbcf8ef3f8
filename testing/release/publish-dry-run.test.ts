// The publish a release runs (changeset publish calls pnpm publish for each package), dry: it
// exits 0, publishes every public package at its version with public access, and nothing private.
import { spawnSync } from 'node:child_process';
import { expect, it } from 'vitest';
import { pnpm, publicPackages, root } from './workspace.js';

it('pnpm -r publish --dry-run publishes every public package, publicly, and nothing else', () => {
  const run = spawnSync(pnpm, ['-r', 'publish', '--dry-run', '--no-git-checks'], { cwd: root, encoding: 'utf8', env: { ...process.env, npm_config_loglevel: 'notice' } });
  const output = `${run.stdout}${run.stderr}`;
  expect(run.status, output).toBe(0);
  const published = [...output.matchAll(/^\+ (@?[^@\s]+)@(\S+)$/gm)].map((match) => `${match[1]}@${match[2]}`).sort();
  expect(published).toEqual(publicPackages().map((pkg) => `${pkg.manifest.name}@${pkg.manifest.version}`).sort());
  const access = [...output.matchAll(/Publishing to \S+ with tag (\S+) and (\w+) access/g)].map((match) => `${match[1]} ${match[2]}`);
  expect(access).toEqual(publicPackages().map(() => 'latest public'));
});

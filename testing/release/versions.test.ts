// One version scheme: the public packages are released together at one version (changesets'
// `fixed` group is exactly them), and the private ones are never versioned.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { publicPackages, readJson, root } from './workspace.js';

const config = readJson<{ fixed: string[][]; linked: string[][]; access: string }>(join(root, '.changeset', 'config.json'));
const names = publicPackages().map((pkg) => pkg.manifest.name).sort();

it('every public package is at one version', () => {
  const versions = new Set(publicPackages().map((pkg) => pkg.manifest.version));
  expect([...versions], publicPackages().map((pkg) => `${pkg.manifest.name}@${pkg.manifest.version}`).join(', ')).toHaveLength(1);
  expect([...versions][0]).toMatch(/^\d+\.\d+\.\d+$/);
  expect([...versions][0]).not.toBe('0.0.0');
});

it('changesets releases the public packages as one fixed group, publicly', () => {
  expect(config.fixed.map((group) => [...group].sort())).toEqual([names]);
  expect(config.linked).toEqual([]);
  expect(config.access).toBe('public');
});

it('changeset status plans one new version for every public package', () => {
  const dir = mkdtempSync(join(tmpdir(), 'changeset-status-'));
  try {
    const output = join(dir, 'status.json');
    const run = spawnSync(process.execPath, [join(root, 'node_modules', '@changesets', 'cli', 'bin.js'), 'status', '--output', output], { cwd: root, encoding: 'utf8' });
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
    const { releases } = readJson<{ releases: { name: string; newVersion: string; type: string }[] }>(output);
    const planned = releases.filter((release) => release.type !== 'none');
    if (planned.length === 0) return; // nothing pending: nothing to agree on
    expect(planned.map((release) => release.name).sort()).toEqual(names);
    expect(new Set(planned.map((release) => release.newVersion)).size, planned.map((release) => `${release.name}@${release.newVersion}`).join(', ')).toBe(1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

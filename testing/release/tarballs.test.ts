// What `npm install` gets: each public package packed as pnpm publishes it (pnpm pack), holding
// its LICENSE (the root's), README.md, package.json and the built dist/, the extra files its
// `files` names, and nothing else; its manifest has no workspace: range left.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pnpm, publicPackages, root } from './workspace.js';

const out = mkdtempSync(join(tmpdir(), 'release-pack-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));
const license = readFileSync(join(root, 'LICENSE'), 'utf8');
const ALWAYS = ['package.json', 'LICENSE', 'README.md'];
const BUILT = /\.(js|cjs|mjs|d\.ts|d\.cts|d\.mts)$/;

const tarFile = (tarball: string, file: string) => {
  const run = spawnSync('tar', ['-xOzf', tarball, `package/${file}`], { encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout;
};

// Every public package packed at once, as the release packs them (one pnpm process).
let packedAll: Array<{ name: string; filename: string; files: { path: string }[] }> = [];
beforeAll(() => {
  const run = spawnSync(pnpm, ['-r', '--filter', './packages/*', 'pack', '--json', '--pack-destination', out], { cwd: root, encoding: 'utf8' });
  expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
  packedAll = JSON.parse(run.stdout) as typeof packedAll;
});

describe.each(publicPackages())('$manifest.name', ({ folder, manifest }) => {
  let tarball = '';
  let files: string[] = [];
  it('packs', () => {
    const packed = packedAll.find((p) => p.name === manifest.name);
    expect(packed, `${manifest.name} among the packed packages`).toBeDefined();
    tarball = packed!.filename;
    files = packed!.files.map((file) => file.path).sort();
  });

  it('holds LICENSE (the root one), README.md, package.json and dist/', () => {
    for (const file of ALWAYS) expect(files).toContain(file);
    expect(tarFile(tarball, 'LICENSE')).toBe(license);
    expect(files.filter((file) => file.startsWith('dist/')).length).toBeGreaterThan(0);
    for (const entry of manifest.files ?? []) expect(files.some((file) => file === entry || file.startsWith(`${entry}/`)), `${entry} (from "files")`).toBe(true);
  });

  it('holds nothing else: no sources, tests, maps, configs or build caches', () => {
    const declared = manifest.files ?? [];
    const unexpected = files.filter((file) => {
      if (ALWAYS.includes(file) || file === 'CHANGELOG.md' || declared.includes(file)) return false;
      return !(file.startsWith('dist/') && declared.includes('dist') && BUILT.test(file));
    });
    expect(unexpected).toEqual([]);
  });

  it('its packed manifest names versions, not workspace: ranges, and its own folder of the repository', () => {
    const packed = tarFile(tarball, 'package.json');
    expect(packed).not.toContain('workspace:');
    const parsed = JSON.parse(packed) as { version: string; repository: { directory: string }; publishConfig: { access: string } };
    expect(parsed.version).toBe(manifest.version);
    expect(parsed.repository.directory).toBe(`packages/${folder}`);
    expect(parsed.publishConfig.access).toBe('public');
  });
});

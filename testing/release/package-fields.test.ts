// repository, homepage, bugs and license of every public package come from one place, the root
// package.json (scripts/package-fields.mjs), and each package carries the root's LICENSE.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicPackages, readJson, root } from './workspace.js';

const script = join(root, 'scripts', 'package-fields.mjs');
const run = (...args: string[]) => spawnSync(process.execPath, [script, ...args], { cwd: root, encoding: 'utf8' });

it('every public package agrees with the root package.json and LICENSE (package-fields --check)', () => {
  const result = run('--check');
  expect(result.status, `${result.stdout}${result.stderr}`).toBe(0);
});

it('the canonical repository is a GitHub repository, named once, never a placeholder', () => {
  const manifest = readJson(join(root, 'package.json')) as { repository?: { type?: string; url?: string }; license?: string };
  expect(manifest.repository?.type).toBe('git');
  expect(manifest.repository?.url).toMatch(/^git\+https:\/\/github\.com\/[\w.-]+\/[\w.-]+\.git$/);
  expect(manifest.license).toBe('MIT');
  for (const { manifest: pkg } of publicPackages()) expect(JSON.stringify(pkg)).not.toMatch(/example\.(invalid|com|org)|placeholder/i);
});

it('the LICENSE is MIT, held by the project, 2026', () => {
  const text = readFileSync(join(root, 'LICENSE'), 'utf8');
  expect(text).toMatch(/^MIT License\n\nCopyright \(c\) 2026 x-sdk\n/);
  expect(text).toContain('THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND');
});

describe('the check fails on drift, and --write repairs only its fields', () => {
  const dir = mkdtempSync(join(tmpdir(), 'package-fields-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const rootManifest = readJson(join(root, 'package.json'));
  beforeAll(() => {
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'x-sdk', private: true, license: rootManifest.license, repository: rootManifest.repository, homepage: rootManifest.homepage, bugs: rootManifest.bugs }, null, 2));
    cpSync(join(root, 'LICENSE'), join(dir, 'LICENSE'));
    mkdirSync(join(dir, 'packages', 'a'), { recursive: true });
    mkdirSync(join(dir, 'packages', 'p'), { recursive: true });
    const drifted = { name: '@x/a', version: '0.1.0', description: 'kept', repository: { type: 'git', url: 'git+https://example.invalid/x-sdk.git', directory: 'packages/a' }, license: 'ISC', dependencies: { '@x/b': 'workspace:*' } };
    writeFileSync(join(dir, 'packages', 'a', 'package.json'), `${JSON.stringify(drifted, null, 2)}\n`);
    writeFileSync(join(dir, 'packages', 'a', 'LICENSE'), 'MIT License\n\nCopyright (c) 2025 someone else\n');
    writeFileSync(join(dir, 'packages', 'p', 'package.json'), `${JSON.stringify({ name: '@x/p', private: true }, null, 2)}\n`);
  });

  it('names each field and file that drifted', () => {
    const result = run('--check', '--root', dir);
    expect(result.status).toBe(1);
    for (const what of ['packages/a/package.json: publishConfig', 'packages/a/package.json: repository', 'packages/a/package.json: homepage', 'packages/a/package.json: bugs', 'packages/a/package.json: license', 'packages/a/LICENSE']) expect(result.stderr).toContain(what);
    expect(result.stderr).not.toContain('packages/p');
  });

  it('--write sets them from the root and leaves every other field as it was', () => {
    expect(run('--write', '--root', dir).status).toBe(0);
    const check = run('--check', '--root', dir);
    expect(check.status, check.stderr).toBe(0);
    const written = readJson(join(dir, 'packages', 'a', 'package.json'));
    expect(written).toMatchObject({ name: '@x/a', version: '0.1.0', description: 'kept', dependencies: { '@x/b': 'workspace:*' }, license: 'MIT', repository: { ...(rootManifest.repository as object), directory: 'packages/a' } });
    expect(readFileSync(join(dir, 'packages', 'a', 'LICENSE'), 'utf8')).toBe(readFileSync(join(root, 'LICENSE'), 'utf8'));
    expect(readJson(join(dir, 'packages', 'p', 'package.json'))).toEqual({ name: '@x/p', private: true });
  });
});

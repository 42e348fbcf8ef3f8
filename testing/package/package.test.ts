// The published shape of the package in the working directory, as a user's install sees it:
// publint --strict, attw --pack (node10, node16 CJS/ESM, bundler), its API reports, both module
// systems loading it in Node, and CommonJS that loads without require(esm) (Jest, bundlers). Run by the package's `check` script (turbo task `check`).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compilerFor, entriesOf, extract } from './api-report.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const pkgDir = process.env.X_PACKAGE_DIR ?? process.cwd();
const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { name: string };
const bin = (name: string) => join(root, 'node_modules', '.bin', name);

describe(pkg.name, () => {
  it('publint --strict finds nothing', () => {
    const run = spawnSync(bin('publint'), ['--strict', pkgDir], { encoding: 'utf8' });
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
  });

  it('attw --pack --profile strict: types resolve under node10, node16 (CJS and ESM) and bundler', () => {
    const run = spawnSync(bin('attw'), ['--pack', pkgDir, '--profile', 'strict', '--format', 'table-flipped'], { encoding: 'utf8' });
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
  });

  const entries = entriesOf(pkgDir);
  let compiler: ReturnType<typeof compilerFor> | null = null; // made by the first report, shared by the others
  for (const entry of entries) {
    it(`${entry.name}: the API report matches the build`, () => {
      compiler ??= compilerFor(entries);
      const { ok, what, messages } = extract(entry, { compiler });
      expect(ok, [what, ...messages].join('\n')).toBe(true);
    });
  }

  const check = `if (!Object.keys(m).length) throw new Error('no exports')`;
  it('loads with import() in Node (ESM)', () => {
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', `const m = await import(${JSON.stringify(pkg.name)}); ${check}`], { cwd: pkgDir, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
  });

  it('every .cjs entry loads without require(esm), and touches no global jsdom lacks at import (scripts/cjs-check.mjs)', () => {
    const run = spawnSync(process.execPath, [join(root, 'scripts', 'cjs-check.mjs'), pkgDir.split('/').filter(Boolean).pop()!], { cwd: root, encoding: 'utf8' });
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
  });

  it('loads with require() in Node (CommonJS)', () => {
    const run = spawnSync(process.execPath, ['-e', `const m = require(${JSON.stringify(pkg.name)}); ${check}`], { cwd: pkgDir, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
  });
});

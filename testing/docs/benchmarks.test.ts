// BENCHMARKS.md is written by `npm run bench` (bench/run.mjs), and some of its sections are
// written by hand (benchmarks run alone, measurements of one change): those sit between
// `<!-- kept: name -->` and `<!-- /kept: name -->` and must survive a rewrite. The writer runs
// here on a copy of bench/ and of BENCHMARKS.md in a temporary folder, from an empty set of saved
// results (BENCH_REPORT_FROM), so nothing is measured and the repository's file is not touched.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const current = readFileSync(join(root, 'BENCHMARKS.md'), 'utf8');
const kept = (text: string) => [...text.matchAll(/^<!-- kept: ([\w.-]+) -->\n[\s\S]*?^<!-- \/kept: \1 -->$/gm)].map((m) => m[0]);

const work = mkdtempSync(join(tmpdir(), 'x-benchmarks-md-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Runs bench/run.mjs's writer over `previous` as the BENCHMARKS.md it finds; answers what it wrote. */
function rewrite(previous: string) {
  const dir = mkdtempSync(join(work, 'run-'));
  cpSync(join(root, 'bench'), join(dir, 'bench'), { recursive: true, filter: (src) => !src.includes('node_modules') && !src.includes('baseline') });
  mkdirSync(join(dir, 'results'));
  writeFileSync(join(dir, 'BENCHMARKS.md'), previous);
  const run = spawnSync(process.execPath, [join(dir, 'bench', 'run.mjs')], { cwd: dir, encoding: 'utf8', env: { ...process.env, BENCH_REPORT_FROM: join(dir, 'results') } });
  return { status: run.status, output: `${run.stdout}${run.stderr}`, written: readFileSync(join(dir, 'BENCHMARKS.md'), 'utf8') };
}

describe('BENCHMARKS.md', () => {
  it('marks its hand-written sections (cold start, emulator memory, otp, crypto, examples)', () => {
    const names = [...current.matchAll(/^<!-- kept: ([\w.-]+) -->$/gm)].map((m) => m[1]);
    expect(names).toEqual(expect.arrayContaining(['coldstart', 'emulator-memory', 'otp', 'crypto', 'examples']));
    expect(kept(current)).toHaveLength(names.length); // every opened section is closed
  });

  it('keeps every hand-written section when bench/run.mjs rewrites it', () => {
    const { status, output, written } = rewrite(current);
    expect(status, output).toBe(0);
    for (const section of kept(current)) expect(written).toContain(section);
    expect(written).toMatch(/^# Benchmarks\n/);
  });

  it('refuses to write when a hand-written section is not closed, rather than lose it', () => {
    const { status, output, written } = rewrite('# Benchmarks\n\n<!-- kept: half -->\n## Half\n\nfigures\n');
    expect(status).not.toBe(0);
    expect(output).toContain('kept: half');
    expect(written).toContain('figures');
  });
});

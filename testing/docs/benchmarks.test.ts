// BENCHMARKS.md is generated as a whole by `npm run bench` (bench/run.mjs) from its last run, with
// no history; the one section it does not write, sending at volume, is written by bench/volume.mjs
// between `<!-- kept: volume -->` and `<!-- /kept: volume -->`, and every rewrite carries it over.
// The writer runs here on a copy of bench/ and of BENCHMARKS.md in a temporary folder, from an
// empty set of saved results (BENCH_REPORT_FROM), so nothing is measured and the repository's file
// is not touched.
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
  it('carries one marked section, the one bench/volume.mjs writes, and no history', () => {
    const names = [...current.matchAll(/^<!-- kept: ([\w.-]+) -->$/gm)].map((m) => m[1]);
    expect(names).toEqual(['volume']);
    expect(kept(current)).toHaveLength(names.length); // every opened section is closed
    expect(current).not.toMatch(/\b(stop|issue)s? ?#?[0-9]{1,3}\b|before and after/i);
  });

  it('keeps the volume section when bench/run.mjs rewrites it, and drops any other marked section', () => {
    const diary = '<!-- kept: diary -->\n## Readings of one change\n\n0.91x\n<!-- /kept: diary -->';
    const { status, output, written } = rewrite(`${current.trimEnd()}\n\n${diary}\n`);
    expect(status, output).toBe(0);
    for (const section of kept(current)) expect(written).toContain(section);
    expect(written).not.toContain('Readings of one change');
    expect(written).toMatch(/^# Benchmarks\n/);
  });

  it('is in the shape bench/run.mjs writes: its sections in its order, the volume section last', () => {
    const { status, output, written } = rewrite(current);
    expect(status, output).toBe(0);
    const headings = (text: string) => [...text.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    // Run from no results, the writer gives the sections that need none; the file has them in the same order.
    const generated = headings(written);
    expect(generated).toEqual(expect.arrayContaining(['Machine', 'Method', 'Summary']));
    expect(headings(current).filter((h) => generated.includes(h))).toEqual(generated);
    expect(headings(current).at(-1)).toMatch(/^Sending at volume/);
    expect(written.slice(written.indexOf('## Method'), written.indexOf('## Summary'))).toBe(current.slice(current.indexOf('## Method'), current.indexOf('## Summary')));
  });

  it('refuses to write when a marked section is not closed, rather than lose it', () => {
    const { status, output, written } = rewrite('# Benchmarks\n\n<!-- kept: half -->\n## Half\n\nfigures\n');
    expect(status).not.toBe(0);
    expect(output).toContain('kept: half');
    expect(written).toContain('figures');
  });
});

// The README snippet harness can fail: a fixture README with one good block and one of each
// kind of drift (a renamed operation, a run whose check fails, an unimported name, an install
// line naming no package) fails each of them, at the README's line, and counts them.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('scripts/readme-snippets.mjs', () => {
  const run = spawnSync(process.execPath, ['scripts/readme-snippets.mjs', '--work', '.work-test', 'testing/docs/fixtures/drift.md'], { cwd: root, encoding: 'utf8' });
  const out = run.stdout;

  it('exits non-zero and counts one item per block', () => {
    expect(run.status).toBe(1);
    expect(out).toMatch(/^readme-snippets: 1 passed, 4 failed$/m);
    expect(out).toContain('1 fragments (not compiled)');
  });

  it('passes the block that matches the built packages', () => {
    expect(out).toContain('PASS testing/docs/fixtures/drift.md:3 (compiled)');
  });

  it('fails a renamed operation at its README line', () => {
    expect(out).toContain('FAIL testing/docs/fixtures/drift.md:10 (compiled)');
    expect(out).toMatch(/testing\/docs\/fixtures\/drift\.md:14:\d+ error TS2339: Property 'sendCode' does not exist/);
  });

  it('runs a ```ts run block and fails it when it throws', () => {
    expect(out).toContain('FAIL testing/docs/fixtures/drift.md:17 (compiled, ran)');
    expect(out).toContain('Error: the text drifted');
  });

  it('fails a name used without its import', () => {
    expect(out).toContain('FAIL testing/docs/fixtures/drift.md:23 (compiled)');
    expect(out).toMatch(/drift\.md:27:\d+ error TS2304: Cannot find name 'verifyRequest'/);
  });

  it('fails an install line that names a package that does not exist', () => {
    expect(out).toContain('FAIL testing/docs/fixtures/drift.md:34 (install line)');
    expect(out).toContain('names @x/clients');
  });
});

describe('a guide block of node:test tests (TESTING.md runs its node:test and msw blocks)', () => {
  const run = spawnSync(process.execPath, ['scripts/readme-snippets.mjs', '--work', '.work-test-node', 'testing/docs/fixtures/node-test.md'], { cwd: root, encoding: 'utf8' });

  it('fails the block when one of its tests fails, with the runner\'s report', () => {
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('FAIL testing/docs/fixtures/node-test.md:3 (compiled, ran)');
    expect(run.stdout).toContain('the outbox is empty at start');
  });
});

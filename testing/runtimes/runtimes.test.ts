// The built packages where users run them: each suite (suites/*.mjs) in each runtime of its plan
// (harness.mjs), one test per check. A runtime that is missing fails its checks, never skips them.
import { beforeAll, describe, expect, it } from 'vitest';
import { bundle, PLAN, run } from './harness.mjs';

type Row = [name: string, ok: boolean, detail: string];
type Outcome = { rows?: Row[]; version?: string; error?: string };

for (const [suite, runtimes] of Object.entries(PLAN)) {
  const built = await bundle(suite);
  const names: string[] = built.names;
  describe(`${suite} suite`, () => {
    for (const runtime of runtimes) {
      describe(runtime, () => {
        let outcome: Outcome = {};
        beforeAll(async () => {
          outcome = (await run(suite, runtime, built)) as Outcome;
        }, 180_000);

        for (const name of names) {
          it(name, () => {
            expect(outcome.error, `the suite did not run in ${runtime}`).toBeUndefined();
            const row = outcome.rows?.find(([rowName]) => rowName === name);
            expect(row, `${runtime} (${outcome.version}) answered no row for this check`).toBeDefined();
            expect(row?.[1], row?.[2]).toBe(true);
          });
        }

        it('answers only the checks it names', () => {
          const unnamed = (outcome.rows ?? []).map(([name]) => name).filter((name) => !names.includes(name));
          expect(unnamed).toEqual([]);
        });
      });
    }
  });
}

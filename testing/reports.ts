import { join } from 'node:path';

/**
 * Vitest settings that write the run's JSON report where `npm test` counts it (scripts/x.mjs):
 * `<dir>/.reports/<name>.json`. Every count of the suite comes from these reports.
 */
export const reportTo = (dir: string, name: string) => ({
  reporters: ['default', 'json'],
  outputFile: { json: join(dir, '.reports', `${name}.json`) },
});

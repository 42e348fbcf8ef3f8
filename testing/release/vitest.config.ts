import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { reportTo } from '../reports.js';

// What a release ships: size budgets (size-limit), the strict consumer fixture, changesets, one
// version, the publishing fields and LICENSE, the tarballs, a publish dry run, the release
// workflow, the API reference in docs/api.
export default defineConfig({ test: { name: 'release', root: import.meta.dirname, ...reportTo(fileURLToPath(new URL('../..', import.meta.url)), 'release'), include: ['*.test.ts'], testTimeout: 300_000, hookTimeout: 300_000 } });

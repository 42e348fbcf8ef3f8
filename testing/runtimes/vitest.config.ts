import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { reportTo } from '../reports.js';

// The cross-runtime suites (harness.mjs): one file, checks run one runtime at a time.
export default defineConfig({ test: { name: 'runtimes', root: import.meta.dirname, ...reportTo(fileURLToPath(new URL('../..', import.meta.url)), 'runtimes'), include: ['*.test.ts'], testTimeout: 60_000, hookTimeout: 180_000, fileParallelism: false } });

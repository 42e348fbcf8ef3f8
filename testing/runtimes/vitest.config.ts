import { defineConfig } from 'vitest/config';

// The cross-runtime suites (harness.mjs): one file, checks run one runtime at a time.
export default defineConfig({ test: { name: 'runtimes', root: import.meta.dirname, include: ['*.test.ts'], testTimeout: 60_000, hookTimeout: 180_000, fileParallelism: false } });

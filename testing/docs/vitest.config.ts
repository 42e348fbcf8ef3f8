import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { reportTo } from '../reports.js';

// Docs whose code runs: README and @example blocks (snippets.test.ts), the API reference
// (typedoc.test.ts), and the snippet harness's own test.
export default defineConfig({ test: { name: 'docs', root: import.meta.dirname, ...reportTo(fileURLToPath(new URL('../..', import.meta.url)), 'docs'), include: ['*.test.ts'], testTimeout: 300_000, hookTimeout: 300_000 } });

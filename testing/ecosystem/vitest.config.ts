import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { reportTo } from '../reports.js';

// Fresh projects in other test runners (run.mjs): each install and each runner's step is a test.
export default defineConfig({ test: { name: 'ecosystem', root: import.meta.dirname, ...reportTo(fileURLToPath(new URL('../..', import.meta.url)), 'ecosystem'), include: ['ecosystem.test.ts'], testTimeout: 60_000 } });

import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { reportTo } from '../reports.js';

// The end-to-end flows users copy: `npm run demo` and each example app, on the built packages.
export default defineConfig({ test: { name: 'examples', root: import.meta.dirname, ...reportTo(fileURLToPath(new URL('../..', import.meta.url)), 'examples'), include: ['*.test.ts'], testTimeout: 150_000, fileParallelism: false } });

import { defineConfig } from 'vitest/config';
import { reportTo } from '../reports.js';

// The published shape of one package (the package's folder is the working directory): each
// package's `check` script runs this config (turbo's per-package `check` task).
export default defineConfig({ test: { name: 'package', root: import.meta.dirname, ...reportTo(process.cwd(), 'check'), include: ['package.test.ts'], testTimeout: 240_000 } });

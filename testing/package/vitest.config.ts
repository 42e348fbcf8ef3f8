import { defineConfig } from 'vitest/config';
import { reportTo } from '../reports.js';

// The published shape of one package (the package's folder is the working directory): each
// package's `check` script runs this config (turbo's per-package `check` task).
// The folder is read here, where pnpm and turbo run the script (a test worker's INIT_CWD is where
// pnpm was started: the repository root under `pnpm --filter`).
export default defineConfig({ test: { name: 'package', root: import.meta.dirname, ...reportTo(process.cwd(), 'check'), env: { X_PACKAGE_DIR: process.cwd() }, include: ['package.test.ts'], testTimeout: 240_000 } });

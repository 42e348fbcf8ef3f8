import { defineConfig } from 'vitest/config';

// One run over every package's project (each package also runs alone with `pnpm test` in its folder).
export default defineConfig({ test: { projects: ['packages/*/vitest.config.ts', 'docs/vitest.config.ts'] } });

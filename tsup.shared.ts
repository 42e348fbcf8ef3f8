import { defineConfig, type Options } from 'tsup';

/** The build every library package shares: ESM + CJS + .d.ts/.d.cts from src/index.ts. */
export const library = (overrides: Options = {}) =>
  defineConfig({ entry: ['src/index.ts'], format: ['esm', 'cjs'], dts: true, clean: true, target: 'es2022', platform: 'neutral', ...overrides });

import { defineConfig } from 'tsup';

// countries-list is a devDependency: its two small JSON tables (ISO alpha-3 codes, English names)
// are inlined into the build, so it is not needed at run time.
export default defineConfig([
  { entry: { index: 'src/index.ts', node: 'src/node.ts', msw: 'src/msw.ts', vitest: 'src/vitest.ts', jest: 'src/jest.ts' }, format: ['esm', 'cjs'], dts: true, clean: true, target: 'es2022', noExternal: ['countries-list'] },
  { entry: { cli: 'src/cli.ts' }, format: ['esm'], target: 'es2022', banner: { js: '#!/usr/bin/env node' }, noExternal: ['countries-list'] },
]);

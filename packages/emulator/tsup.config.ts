import { defineConfig } from 'tsup';

export default defineConfig([
  { entry: { index: 'src/index.ts', node: 'src/node.ts' }, format: ['esm', 'cjs'], dts: true, clean: true, target: 'es2022' },
  { entry: { cli: 'src/cli.ts' }, format: ['esm'], target: 'es2022', banner: { js: '#!/usr/bin/env node' } },
]);

import { defineConfig } from 'tsup';
import { inspectorDefine } from './build/inspector.js';

// countries-list is a devDependency: its two small JSON tables (ISO alpha-3 codes, English names)
// are inlined into the build, so it is not needed at run time. The inspector's browser files are
// compiled here too (build/inspector.ts) and reach the code as one constant.
const define = inspectorDefine();
export default defineConfig([
  { entry: { index: 'src/index.ts', node: 'src/node.ts', msw: 'src/msw.ts', vitest: 'src/vitest.ts', jest: 'src/jest.ts' }, format: ['esm', 'cjs'], dts: true, clean: true, target: 'es2022', noExternal: ['countries-list'], define },
  { entry: { cli: 'src/cli.ts' }, format: ['esm'], target: 'es2022', banner: { js: '#!/usr/bin/env node' }, noExternal: ['countries-list'], define },
]);

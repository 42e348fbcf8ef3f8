import { defineProject } from 'vitest/config';
import { inspectorDefine } from './build/inspector.js';

export default defineProject({
  // The inspector's browser files, compiled as the build compiles them (build/inspector.ts).
  define: inspectorDefine(),
  test: { name: 'emulator', isolate: false, include: ['test/**/*.test.ts'], testTimeout: 20_000, typecheck: { enabled: process.env.VITEST_TYPECHECK !== 'off', include: ['test/**/*.test-d.ts'] } },
});

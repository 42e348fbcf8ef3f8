import { defineProject } from 'vitest/config';

export default defineProject({
  define: { __VERSION__: JSON.stringify('test') },
  test: { name: 'client', isolate: false, include: ['test/**/*.test.ts'], testTimeout: 20_000, typecheck: { enabled: process.env.VITEST_TYPECHECK !== 'off', include: ['test/**/*.test-d.ts'] } },
});

import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'emulator', include: ['test/**/*.test.ts'], testTimeout: 20_000, typecheck: { enabled: process.env.VITEST_TYPECHECK !== 'off', include: ['test/**/*.test-d.ts'] } },
});

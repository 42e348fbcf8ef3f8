import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'emulator', include: ['test/**/*.test.ts'], testTimeout: 20_000, typecheck: { enabled: true, include: ['test/**/*.test-d.ts'] } },
});

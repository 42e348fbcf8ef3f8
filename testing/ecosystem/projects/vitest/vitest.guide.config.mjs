import { defineConfig } from 'vitest/config';

// The Vitest test of packages/emulator/TESTING.md (run.mjs writes it to guide/).
export default defineConfig({
  test: { environment: 'node', include: ['guide/**/*.test.ts'] },
});

import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

// `#hashes` from source, as the `node` condition resolves it in the build; the pure file is tested by importing it.
export default defineProject({
  resolve: { alias: { '#hashes': fileURLToPath(new URL('./src/node/hashes.ts', import.meta.url)) } },
  test: { name: 'auth', include: ['test/**/*.test.ts'], typecheck: { enabled: process.env.VITEST_TYPECHECK !== 'off', include: ['test/**/*.test-d.ts'] } },
});

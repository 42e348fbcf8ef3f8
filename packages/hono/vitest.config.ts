import { defineProject } from 'vitest/config';

export default defineProject({ test: { name: 'hono', isolate: false, include: ['test/**/*.test.ts'], typecheck: { enabled: process.env.VITEST_TYPECHECK !== 'off', include: ['test/**/*.test-d.ts'] } } });

import { defineProject } from 'vitest/config';

export default defineProject({ test: { name: 'webhooks', isolate: false, include: ['test/**/*.test.ts'], globalSetup: ['../../testing/redis-server.ts'], testTimeout: 20_000, typecheck: { enabled: process.env.VITEST_TYPECHECK !== 'off', include: ['test/**/*.test-d.ts'] } } });

import { defineProject } from 'vitest/config';

export default defineProject({ test: { name: 'hono', include: ['test/**/*.test.ts'], typecheck: { enabled: true, include: ['test/**/*.test-d.ts'] } } });

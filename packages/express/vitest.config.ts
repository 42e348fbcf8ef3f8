import { defineProject } from 'vitest/config';

export default defineProject({ test: { name: 'express', include: ['test/**/*.test.ts'], typecheck: { enabled: true, include: ['test/**/*.test-d.ts'] } } });

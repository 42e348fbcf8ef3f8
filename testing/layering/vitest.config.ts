import { defineConfig } from 'vitest/config';

// Rules about how each package's source is laid out (no import cycles).
export default defineConfig({ test: { name: 'layering', root: import.meta.dirname, include: ['*.test.ts'] } });

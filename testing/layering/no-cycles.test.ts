// No import cycles in any package's source, type imports included: a cycle makes the layering of
// files meaningless even when the bundler can order it.
import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cycles, importGraph } from './imports.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const packages = readdirSync(join(root, 'packages')).filter((name) => existsSync(join(root, 'packages', name, 'src')));


describe('no import cycles', () => {
  it('finds a cycle when there is one', () => {
    const a = '/p/a.ts';
    const b = '/p/b.ts';
    expect(cycles(new Map([[a, [b]], [b, [a]]]), '/p')).toEqual([['a.ts', 'b.ts', 'a.ts']]);
    expect(cycles(new Map([[a, [b]], [b, []]]), '/p')).toEqual([]);
  });

  it('reads type imports, re-exports and import() types as edges', () => {
    const graph = importGraph(join(root, 'testing/layering/fixture'));
    expect(cycles(graph, join(root, 'testing/layering/fixture'))).toHaveLength(1);
  });

  for (const name of packages) {
    it(`packages/${name}/src`, () => {
      const src = join(root, 'packages', name, 'src');
      expect(cycles(importGraph(src), src)).toEqual([]);
    });
  }
});

// No import cycles in any package's source, type imports included: a cycle makes the layering of
// files meaningless even when the bundler can order it.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

  it('follows package-internal # imports to the source of every condition (a planted cycle through one is caught)', () => {
    const pkg = mkdtempSync(join(tmpdir(), 'layering-'));
    try {
      mkdirSync(join(pkg, 'src', 'node'), { recursive: true });
      const imports = { '#hashes': { node: { import: './dist/hashes-node.js', require: './dist/hashes-node.cjs' }, default: './dist/hashes.js' } };
      writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'planted', imports }));
      writeFileSync(join(pkg, 'tsup.config.ts'), "export default { entry: { index: 'src/index.ts', hashes: 'src/hashes.ts', 'hashes-node': 'src/node/hashes.ts' } };");
      writeFileSync(join(pkg, 'src', 'index.ts'), "export { mac } from './hmac.js';");
      writeFileSync(join(pkg, 'src', 'hmac.ts'), "import { hmac } from '#hashes';\nexport type Mac = () => string;\nexport const mac = hmac;");
      writeFileSync(join(pkg, 'src', 'hashes.ts'), "export const hmac = () => '';");
      // Only the node condition's file closes the cycle, and only with a type import.
      writeFileSync(join(pkg, 'src', 'node', 'hashes.ts'), "import type { Mac } from '../hmac.js';\nexport const hmac: Mac = () => '';");
      const src = join(pkg, 'src');
      expect(cycles(importGraph(src), src)).toEqual([['hmac.ts', 'node/hashes.ts', 'hmac.ts']]);
      // Without the import back, no cycle.
      writeFileSync(join(pkg, 'src', 'node', 'hashes.ts'), "export const hmac = () => '';");
      expect(cycles(importGraph(src), src)).toEqual([]);
      // A # import that names no source is an error, never a skipped edge.
      writeFileSync(join(pkg, 'src', 'hashes.ts'), "import { x } from '#unknown';\nexport const hmac = () => x;");
      expect(() => importGraph(src)).toThrow(/#unknown/);
    } finally {
      rmSync(pkg, { recursive: true, force: true });
    }
  });

  for (const name of packages) {
    it(`packages/${name}/src`, () => {
      const src = join(root, 'packages', name, 'src');
      expect(cycles(importGraph(src), src)).toEqual([]);
    });
  }
});

// The emulator's folders are layers (ARCHITECTURE.md): service/ < state/ < control/ < the top
// (openapi/, routes/, inspector/, cli/, testing/ and the entry files emulator.ts, node.ts, cli.ts,
// index.ts, msw.ts, vitest.ts, jest.ts). A file imports its own layer or a lower one, never a higher
// one, type imports included. The other files at the root of src (errors, types, logger, paths, ...)
// are shared by every layer and are not ranked.
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importGraph } from './imports.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const src = join(root, 'packages', 'emulator', 'src');

const TOP = 3;
const FOLDERS: Record<string, number> = { service: 0, state: 1, control: 2, openapi: TOP, routes: TOP, inspector: TOP, cli: TOP, testing: TOP };
const ENTRIES = ['emulator.ts', 'node.ts', 'cli.ts', 'index.ts', 'msw.ts', 'vitest.ts', 'jest.ts'];

/** A file's layer, by its path under src; undefined for the shared files at the root. */
function layerOf(path: string): number | undefined {
  const parts = path.split(sep);
  if (parts.length === 1) return ENTRIES.includes(parts[0]!) ? TOP : undefined;
  const layer = FOLDERS[parts[0]!];
  if (layer === undefined) throw new Error(`src/${parts[0]}/ has no layer: add it to FOLDERS (and to ARCHITECTURE.md's table).`);
  return layer;
}

/** Every import of a file into a higher layer, as "from -> to" (paths under `base`). */
function upward(graph: Map<string, string[]>, base: string): string[] {
  const found: string[] = [];
  for (const [file, targets] of graph) {
    const from = layerOf(relative(base, file));
    if (from === undefined) continue;
    for (const target of targets) {
      const to = layerOf(relative(base, target));
      if (to !== undefined && to > from) found.push(`${relative(base, file)} -> ${relative(base, target)}`);
    }
  }
  return found.sort();
}

describe('the emulator\'s layers', () => {
  it('finds an import into a higher layer, and only those', () => {
    const graph = new Map([
      ['/s/state/a.ts', ['/s/control/b.ts', '/s/service/c.ts', '/s/errors.ts']],
      ['/s/service/c.ts', ['/s/routes/d.ts', '/s/types.ts']],
      ['/s/routes/d.ts', ['/s/openapi/e.ts', '/s/state/a.ts']],
      ['/s/control/b.ts', ['/s/emulator.ts']],
      ['/s/types.ts', ['/s/state/a.ts']],
    ]);
    expect(upward(graph, '/s')).toEqual(['control/b.ts -> emulator.ts', 'service/c.ts -> routes/d.ts', 'state/a.ts -> control/b.ts']);
  });

  it('packages/emulator/src: no file imports a higher layer', () => {
    expect(upward(importGraph(src), src)).toEqual([]);
  });
});

// The emulator's source has no import cycle (type imports included): each folder can be read on
// its own, and `types.ts` holds leaf types only.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = fileURLToPath(new URL('../src', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Every relative import and re-export of each file, as file paths. */
function graph(): Map<string, string[]> {
  const files = sources(src);
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(/(?:import|export)[^'"]*?from\s*'(\.[^']+)'/g)].map((m) => normalize(join(dirname(file), m[1]!.replace(/\.js$/, '.ts'))));
    edges.set(file, targets.filter((t) => files.includes(t)));
  }
  return edges;
}

function cycles(edges: Map<string, string[]>): string[][] {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of edges.get(node) ?? []) {
      if (state.get(next) === 'open') found.push([...stack.slice(stack.indexOf(next)), next].map((f) => f.slice(src.length + 1)));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of edges.keys()) if (!state.has(node)) visit(node);
  return found;
}

describe('layout', () => {
  it('no import cycle in src (type imports included)', () => {
    expect(cycles(graph())).toEqual([]);
  });

  it('the check finds a cycle when there is one', () => {
    expect(cycles(new Map([[`${src}/a.ts`, [`${src}/b.ts`]], [`${src}/b.ts`, [`${src}/a.ts`]]]))).toEqual([['a.ts', 'b.ts', 'a.ts']]);
  });
});

// The imports of a package's source inside the package (value and type imports alike): relative
// ones, and package-internal `#` imports, which package.json "imports" resolves by export
// conditions. And the cycles they form.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** `from '...'` of import/export statements, and `import('...')` (in code and in types). */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s*)['"]((?:\.{1,2}\/|#)[^'"]+)['"]/gm;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mts)$/.test(name) ? [path] : [];
  });
}

/** The file a relative specifier names: `./x.js` is `./x.ts`, a folder is its index. */
function resolveSpecifier(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.(m?js|tsx?)$/, '');
  for (const candidate of [`${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, join(base, 'index.ts')]) if (existsSync(candidate)) return candidate;
  return undefined;
}

/** Every target of a package.json "imports" entry, whatever the conditions (nested condition objects walked). */
function targetsOf(entry: unknown): string[] {
  if (typeof entry === 'string') return [entry];
  if (Array.isArray(entry)) return entry.flatMap(targetsOf);
  if (typeof entry === 'object' && entry !== null) return Object.values(entry).flatMap(targetsOf);
  return [];
}

/**
 * The source files a `#` import names under any export condition. package.json "imports" names
 * built files (`./dist/hashes-node.js`); each is traced to its source by the package's tsup entry
 * of that name (`'hashes-node': 'src/node/hashes.ts'`). A target that names a source file is taken
 * as it is. Throws when a `#` import cannot be traced to a source: the check never skips an edge.
 */
function resolveHashImport(pkg: string, specifier: string): string[] {
  const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { imports?: Record<string, unknown> };
  const targets = targetsOf(manifest.imports?.[specifier]);
  const tsup = existsSync(join(pkg, 'tsup.config.ts')) ? readFileSync(join(pkg, 'tsup.config.ts'), 'utf8') : '';
  const files = new Set<string>();
  for (const target of targets) {
    const built = /^\.\/dist\/(.+)\.(?:c|m)?js$/.exec(target);
    const entry = built && new RegExp(`[\\s{,]['"]?${built[1]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}['"]?\\s*:\\s*['"]([^'"]+)['"]`).exec(tsup);
    const source = entry ? resolve(pkg, entry[1]!) : /\.(m?ts|tsx)$/.test(target) ? resolve(pkg, target) : undefined;
    if (source === undefined || !existsSync(source)) throw new Error(`${pkg}: ${specifier} -> ${target} names no source file (add its tsup entry)`);
    files.add(source);
  }
  if (files.size === 0) throw new Error(`${pkg}: ${specifier} is not in package.json "imports"`);
  return [...files];
}

/** File -> the files it imports, for every source file under `src` (its package is the folder above). */
export function importGraph(src: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const pkg = dirname(src);
  for (const file of sourceFiles(src)) {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(SPECIFIER)].flatMap((m) => {
      const specifier = m[1]!;
      if (specifier.startsWith('#')) return resolveHashImport(pkg, specifier);
      const target = resolveSpecifier(file, specifier);
      return target === undefined ? [] : [target];
    });
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Every cycle found by a depth-first walk, each as the files in import order (relative to `root`). */
export function cycles(graph: Map<string, string[]>, root: string): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') found.push([...stack.slice(stack.indexOf(next)), next].map((f) => relative(root, f)));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return found;
}

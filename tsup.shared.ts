import { defineConfig, type Options } from 'tsup';

type Plugin = NonNullable<Options['esbuildPlugins']>[number];

/**
 * Keeps ESM-only dependencies external in the ESM build only: the CJS build carries them, so that
 * `require()` of it never loads an ES module (Jest, bundlers targeting CJS, Node without
 * require(esm)). The ESM build imports them, so that an application shares one copy.
 */
const externalInEsm = (names: string[]): Plugin => ({
  name: 'external-in-esm',
  setup(build) {
    if (build.initialOptions.format !== 'esm') return;
    const filter = new RegExp(`^(${names.map((n) => n.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|')})(/|$)`);
    build.onResolve({ filter }, (args) => ({ path: args.path, external: true }));
  },
});

export interface LibraryOptions extends Options {
  /** Dependencies that ship ESM only: bundled into the `.cjs` files, imported by the `.js` files. */
  esmOnlyDependencies?: string[];
}

/** The build every library package shares: ESM + CJS + .d.ts/.d.cts from src/index.ts. */
export const library = ({ esmOnlyDependencies = [], ...overrides }: LibraryOptions = {}) =>
  defineConfig({
    entry: ['src/index.ts'], format: ['esm', 'cjs'], dts: true, clean: true, target: 'es2022', platform: 'neutral',
    ...overrides,
    ...(esmOnlyDependencies.length && { noExternal: esmOnlyDependencies, esbuildPlugins: [externalInEsm(esmOnlyDependencies)] }),
  });

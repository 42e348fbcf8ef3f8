// The inspector's browser files, compiled at build time: src/inspector/app/*.ts bundled and
// minified by esbuild into one ES module, app.css minified, page.html as written. tsup.config.ts
// and vitest.config.ts both hand them to the code as one `define` (__INSPECTOR__, read by
// src/inspector/files.ts), so the sources run under vitest exactly as the build does, and users
// build nothing.
import { buildSync } from 'esbuild';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { InspectorFiles } from '../src/inspector/files.js';

const source = (path: string) => fileURLToPath(new URL(`../src/inspector/${path}`, import.meta.url));

const bundle = (entry: string) =>
  buildSync({ entryPoints: [source(entry)], bundle: true, minify: true, write: false, format: 'esm', platform: 'browser', target: 'es2022', legalComments: 'none', logLevel: 'silent' }).outputFiles[0]!.text;

export function inspectorFiles(): InspectorFiles {
  return { script: bundle('app/main.ts'), style: bundle('app.css'), page: readFileSync(source('page.html'), 'utf8') };
}

/** The `define` of tsup and vitest: the files as one JSON constant. */
export const inspectorDefine = (): Record<string, string> => ({ __INSPECTOR__: JSON.stringify(inspectorFiles()) });

/** The inspector's browser files, as served. */
export interface InspectorFiles {
  /** app.js: an ES module. */
  script: string;
  /** app.css. */
  style: string;
  /** The page, with `{{assets}}` and `{{data}}` for page.ts to fill. */
  page: string;
}

/** Set at build time (build/inspector.ts, through tsup's and vitest's `define`). */
declare const __INSPECTOR__: InspectorFiles | undefined;

/**
 * The inspector's page, script and styles, compiled from src/inspector/app/*.ts, app.css and
 * page.html when the package is built (or when vitest loads the sources).
 */
export function inspectorFiles(): InspectorFiles {
  if (typeof __INSPECTOR__ === 'undefined') throw new Error('The inspector is compiled at build time: run the emulator from its build (pnpm turbo run build --filter=@x/emulator) or through its vitest config.');
  return __INSPECTOR__;
}

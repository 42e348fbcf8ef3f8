// API reports: every public entry point of a package ("exports" of its package.json, but
// ./package.json) pinned by an API Extractor report committed at packages/<pkg>/etc/<name>.api.md,
// made from the BUILT declarations (tsup's .d.ts; build first). One configuration per entry point,
// generated here, so a new subpath is pinned the moment it is exported. The package check
// (package.test.ts) compares; `pnpm api:update` (scripts/api-update.mjs) rewrites them.
// The message settings are decisions, written in CONTRIBUTING.md ("API reports").
import { CompilerState, Extractor, ExtractorConfig } from '@microsoft/api-extractor';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The ESM declaration file of an "exports" target (the `types` beside `import`). */
function typesOf(target) {
  if (typeof target === 'string') return target.endsWith('.d.ts') ? target : undefined;
  if (!target || typeof target !== 'object') return undefined;
  if (typeof target.types === 'string' && target.types.endsWith('.d.ts')) return target.types;
  for (const key of ['import', 'node', 'default']) {
    const found = key in target ? typesOf(target[key]) : undefined;
    if (found) return found;
  }
  return undefined;
}

/** The public entry points of the package in `pkgDir`: name, declaration file, report name. */
export function entriesOf(pkgDir) {
  const dir = pkgDir.split('/').filter(Boolean).pop();
  const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
  const list = [];
  for (const [subpath, target] of Object.entries(pkg.exports ?? {})) {
    if (subpath === './package.json') continue;
    const types = typesOf(target);
    const name = `${pkg.name}${subpath.slice(1)}`;
    const report = `${dir}${subpath === '.' ? '' : `-${subpath.slice(2).replaceAll('/', '-')}`}.api.md`;
    list.push({ name, pkgDir, types, report });
  }
  return list;
}

/** Every published package of the workspace (its folder). */
export function packageDirs() {
  return readdirSync(join(root, 'packages'))
    .sort()
    .map((dir) => join(root, 'packages', dir))
    .filter((pkgDir) => !JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')).private);
}

function configFor(entry) {
  return {
    projectFolder: entry.pkgDir,
    mainEntryPointFilePath: join(entry.pkgDir, entry.types),
    bundledPackages: [],
    compiler: {
      overrideTsconfig: {
        compilerOptions: { target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', lib: ['ES2022', 'DOM', 'DOM.Iterable'], types: ['node'], strict: true, skipLibCheck: true },
        files: [join(entry.pkgDir, entry.types)],
      },
    },
    apiReport: {
      enabled: true,
      reportFileName: entry.report,
      reportFolder: join(entry.pkgDir, 'etc'),
      reportTempFolder: join(root, '.ci-out', 'api'),
    },
    docModel: { enabled: false },
    dtsRollup: { enabled: false },
    tsdocMetadata: { enabled: false },
    newlineKind: 'lf',
    messages: {
      compilerMessageReporting: { default: { logLevel: 'warning' } },
      extractorMessageReporting: {
        // Everything else (ae-forgotten-export, ae-incompatible-release-tags, ...) is written into
        // the report, where review sees it and the check pins it.
        default: { logLevel: 'warning', addToApiReportFile: true },
        // No release tags: the entry point says who a name is for (main entry: users; /protocol,
        // /adapter, /testing, /node: their audiences), and each entry's names are all public.
        'ae-missing-release-tag': { logLevel: 'none' },
      },
      tsdocMessageReporting: { default: { logLevel: 'none' } },
    },
  };
}

const prepare = (entry) =>
  ExtractorConfig.prepare({
    configObject: configFor(entry),
    configObjectFullPath: join(entry.pkgDir, 'api-extractor.json'), // not read: the path anchors relative paths
    packageJsonFullPath: join(entry.pkgDir, 'package.json'),
  });
const problemOf = (entry) => (!entry.types ? 'no .d.ts under its "import" condition' : !existsSync(join(entry.pkgDir, entry.types)) ? `${entry.types} is missing (run the build first)` : undefined);

/**
 * One TypeScript program for the entries of a package (API Extractor's public `CompilerState`), so
 * that each entry's report does not compile the package's declarations again. Undefined when an
 * entry has no declarations (its `extract` then says why).
 */
export function compilerFor(entries) {
  if (!entries.length || entries.some(problemOf)) return undefined;
  return CompilerState.create(prepare(entries[0]), { additionalEntryPoints: entries.slice(1).map((entry) => join(entry.pkgDir, entry.types)) });
}

/**
 * Runs API Extractor on one entry: `{ ok, what, messages }`. Without `update`, `ok` says the
 * committed report matches the build; with it, the report is rewritten. `compiler` (from
 * `compilerFor`) shares one program between the entries of a package.
 * @param {{ name: string, pkgDir: string, types: string | undefined, report: string }} entry
 * @param {{ update?: boolean, compiler?: CompilerState | undefined }} [options]
 */
export function extract(entry, { update = false, compiler } = {}) {
  const problem = problemOf(entry);
  if (problem) return { ok: false, what: problem, messages: [] };
  mkdirSync(join(entry.pkgDir, 'etc'), { recursive: true });
  const config = prepare(entry);
  const messages = [];
  const result = Extractor.invoke(config, {
    localBuild: update,
    showVerboseMessages: false,
    ...(compiler ? { compilerState: compiler } : {}),
    messageCallback: (message) => {
      message.handled = true;
      if (message.logLevel === 'error' || message.logLevel === 'warning') messages.push(message.formatMessageWithLocation(root));
    },
  });
  const ok = result.succeeded && (update || !result.apiReportChanged);
  const what = update
    ? result.apiReportChanged ? 'updated' : 'unchanged'
    : result.apiReportChanged ? `differs from packages/${entry.pkgDir.split('/').pop()}/etc/${entry.report}: if intended, pnpm api:update, review, add a changeset` : 'matches its report';
  return { ok, what, messages };
}

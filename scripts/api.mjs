#!/usr/bin/env node
// API reports: every public entry point of every package ("exports" of its package.json, but
// ./package.json) pinned by an API Extractor report committed at packages/<pkg>/etc/<name>.api.md,
// made from the BUILT declarations (tsup's .d.ts; run the build first). One configuration per
// entry point, generated here, so a new subpath is pinned the moment it is exported.
//   node scripts/api.mjs            check (CI): fails when a report differs from the build
//   node scripts/api.mjs --update   regenerate the reports (then review and commit the diff)
//   ... [@x/auth ...]               only these packages
// The message settings are decisions, written in CONTRIBUTING.md ("API reports").
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const update = process.argv.includes('--update');
const only = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));

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

/** Every public entry point: package, subpath, its declaration file and its report's name. */
function entries() {
  const list = [];
  for (const dir of readdirSync(join(root, 'packages')).sort()) {
    const pkgDir = join(root, 'packages', dir);
    const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
    if (pkg.private || (only.length && !only.includes(pkg.name))) continue;
    for (const [subpath, target] of Object.entries(pkg.exports ?? {})) {
      if (subpath === './package.json') continue;
      const types = typesOf(target);
      const name = `${pkg.name}${subpath.slice(1)}`;
      const report = `${dir}${subpath === '.' ? '' : `-${subpath.slice(2).replaceAll('/', '-')}`}.api.md`;
      list.push({ name, pkgDir, types, report });
    }
  }
  return list;
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

let passed = 0;
let failed = 0;
for (const entry of entries()) {
  const problem = !entry.types ? 'no .d.ts under its "import" condition' : !existsSync(join(entry.pkgDir, entry.types)) ? `${entry.types} is missing (run the build first)` : undefined;
  if (problem) {
    failed++;
    console.log(`FAIL ${entry.name}: ${problem}`);
    continue;
  }
  mkdirSync(join(entry.pkgDir, 'etc'), { recursive: true });
  const config = ExtractorConfig.prepare({
    configObject: configFor(entry),
    configObjectFullPath: join(entry.pkgDir, 'api-extractor.json'), // not read: the path anchors relative paths
    packageJsonFullPath: join(entry.pkgDir, 'package.json'),
  });
  const messages = [];
  const result = Extractor.invoke(config, {
    localBuild: update,
    showVerboseMessages: false,
    messageCallback: (message) => {
      message.handled = true;
      if (message.logLevel === 'error' || message.logLevel === 'warning') messages.push(message.formatMessageWithLocation(root));
    },
  });
  const ok = result.succeeded && (update || !result.apiReportChanged);
  if (ok) passed++;
  else failed++;
  const what = update ? (result.apiReportChanged ? 'updated' : 'unchanged') : result.apiReportChanged ? `differs from packages/${entry.pkgDir.split('/').pop()}/etc/${entry.report}` : 'matches its report';
  console.log(`${ok ? 'PASS' : 'FAIL'} ${entry.name}: ${what}`);
  for (const message of messages) console.log(`  ${message}`);
}
if (failed && !update) console.log('\nThe public API changed. If that is intended: pnpm api:update, review the reports (packages/*/etc/*.api.md), add a changeset, commit.');
console.log(`api: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);

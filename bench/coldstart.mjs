// Cold start and install footprint, as a user meets them: the built packages packed (pnpm pack)
// and installed with npm into a fresh project (no workspace links), beside `npm i telesignsdk`.
//   - installed packages and unpacked size of `npm i @x/client` and of `npm i telesignsdk`;
//   - `require('@x/client')` + `createClient()` against `require('telesignsdk')` + `new TeleSign()`,
//     and the same by `import`: each a fresh process, the four alternated, round after round; the
//     time is measured inside the process, from before the require to after the constructor.
// Settings: COLDSTART_ROUNDS (default 20); COLDSTART_TARBALLS=<dir> installs the .tgz found there
// instead of packing the workspace (to measure other builds with the same command).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pairedRows, report, TIMED_END, TIMED_START, timedInFreshProcesses } from './harness.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const rounds = Number(process.env.COLDSTART_ROUNDS ?? 20);
const OFFICIAL = 'telesignsdk@3.0.4';
const credentials = { customerId: 'FFFFFFFF-EEEE-DDDD-1234-AB1234567890', apiKey: 'ABC12345yusumoN6BYsBVkh+yRJ5czgsnCehZaOYldPJdmFh6NeX8kunZ2zU1YWaUw/0wV6xfw==' };
const work = mkdtempSync(join(tmpdir(), 'x-coldstart-'));

/** The tarballs of @x/service, @x/auth and @x/client (packed now, unless given). */
function tarballs() {
  const given = process.env.COLDSTART_TARBALLS;
  if (given) return readdirSync(given).filter((f) => f.endsWith('.tgz')).map((f) => join(given, f));
  const dir = join(work, 'packed');
  for (const name of ['service', 'auth', 'client']) {
    const pkg = join(root, 'packages', name);
    if (!existsSync(join(pkg, 'dist'))) throw new Error(`build @x/${name} first (pnpm turbo run build)`);
    execFileSync('pnpm', ['pack', '--pack-destination', dir], { cwd: pkg, stdio: 'ignore' });
  }
  return readdirSync(dir).map((f) => join(dir, f));
}

/** A fresh npm project with these packages installed. */
function project(name, specs) {
  const dir = join(work, name);
  execFileSync('mkdir', ['-p', dir]);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `coldstart-${name}`, private: true }));
  execFileSync('npm', ['i', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', ...specs], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  return dir;
}

/** Installed packages (every folder with a package.json under node_modules) and their bytes. */
function footprint(dir) {
  let packages = 0;
  let bytes = 0;
  const walk = (folder, inModules) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (entry.name === '.bin') continue;
        if (inModules && !entry.name.startsWith('@') && existsSync(join(path, 'package.json'))) packages++;
        walk(path, entry.name === 'node_modules' || (inModules && entry.name.startsWith('@')));
      } else if (entry.isFile() && entry.name !== '.package-lock.json') bytes += statSync(path).size;
    }
  };
  walk(join(dir, 'node_modules'), true);
  return { packages, bytes };
}

const ours = project('x-client', tarballs());
const theirs = project('official', [OFFICIAL]);

const official = `new TeleSign(${JSON.stringify(credentials.customerId)}, ${JSON.stringify(credentials.apiKey)});`;
const scripts = {
  'require-x.cjs': `${TIMED_START} const { createClient } = require('@x/client'); createClient(${JSON.stringify(credentials)}); ${TIMED_END}`,
  'require-official.cjs': `${TIMED_START} const TeleSign = require('telesignsdk'); ${official} ${TIMED_END}`,
  'import-x.mjs': `${TIMED_START} const { createClient } = await import('@x/client'); createClient(${JSON.stringify(credentials)}); ${TIMED_END}`,
  'import-official.mjs': `${TIMED_START} const { default: TeleSign } = await import('telesignsdk'); ${official} ${TIMED_END}`,
};
for (const [file, text] of Object.entries(scripts)) writeFileSync(join(file.includes('-x.') ? ours : theirs, file), text);

const variants = [
  { name: '@x/client: require + createClient()', file: 'require-x.cjs', dir: ours, kind: 'require' },
  { name: 'telesignsdk: require + new TeleSign()', file: 'require-official.cjs', dir: theirs, kind: 'require', role: 'official' },
  { name: '@x/client: import + createClient()', file: 'import-x.mjs', dir: ours, kind: 'import' },
  { name: 'telesignsdk: import + new TeleSign()', file: 'import-official.mjs', dir: theirs, kind: 'import', role: 'official' },
];
// Each prints the wall time and the CPU time (user + system, all threads) of the load and the constructor.
const { walls, cpus } = timedInFreshProcesses(variants, rounds, (v) => spawnSync(process.execPath, [v.file], { cwd: v.dir, encoding: 'utf8' }));

const notes = {
  cpu: 'CPU milliseconds (user + system) inside a fresh process, from before the require (or import) to after the constructor: steadier than wall time on a loaded machine. Lower is faster; the ratio is against the official client in the same round, below 1.00x is faster.',
  wall: 'Wall-clock milliseconds inside a fresh process, from before the require (or import) to after the constructor. Lower is faster; the ratio is against the official client in the same round, below 1.00x is faster.',
};
for (const [measure, times] of [['cpu', cpus], ['wall', walls]]) for (const kind of ['require', 'import']) {
  const picked = variants.map((v, i) => [v, times[i]]).filter(([v]) => v.kind === kind);
  report({
    id: `coldstart-${kind}${measure === 'cpu' ? '' : '-wall'}`,
    title: `Cold start: ${kind} + construct, installed from packed tarballs, ${measure === 'cpu' ? 'CPU time' : 'wall time'}`,
    unit: measure === 'cpu' ? 'CPU ms' : 'ms',
    rounds,
    processes: true,
    ms: 0,
    warmupMs: 0,
    notes: [notes[measure]],
    references: [{ name: picked.find(([v]) => v.role)[0].name, role: 'official' }],
    rows: pairedRows(picked.map(([v]) => v), picked.map(([, t]) => t), ['official']),
  });
}

const sizes = [
  { name: 'npm i @x/client', ...footprint(ours) },
  { name: `npm i ${OFFICIAL}`, ...footprint(theirs) },
];
console.log('\nInstall footprint (npm i into an empty project)');
for (const s of sizes) console.log(`${s.name.padEnd(28)} ${String(s.packages).padStart(3)} packages  ${(s.bytes / 1e6).toFixed(2)} MB unpacked`);
if (process.env.BENCH_OUT) writeFileSync(join(process.env.BENCH_OUT, 'install.json'), JSON.stringify({ id: 'install', title: 'Install footprint (npm i into an empty project)', rows: sizes }, null, 2));
rmSync(work, { recursive: true, force: true });

// `npm run bench`: runs every benchmark in its own process (one after the other, so they do not
// compete), then writes the whole of BENCHMARKS.md at the repository root from that run: machine,
// date, load, method, the summary rows, the floors the repository keeps, every comparison in full,
// the install footprint, the guard's decisions and the sizes with their budgets. No history: each
// run replaces the last. The one section it does not write, "Sending at volume", is written by
// bench/volume.mjs (a Redis server and several processes; not part of this run) and carried over
// (between `<!-- kept: volume -->` markers, kept.mjs); any other marked section is dropped.
//   node run.mjs                    all benchmarks, writes ../BENCHMARKS.md
//   node run.mjs sign replay        only these (still writes the report from what it has)
//   node run.mjs coldstart          cold start and install footprint against the official client
//   node run.mjs all                every benchmark and the instruction counts (instructions.mjs:
//                                   valgrind, about 10 minutes more; left out of the default run)
// Settings: BENCH_MS, BENCH_ROUNDS, BENCH_WARMUP_MS (see harness.mjs).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, tmpdir, totalmem, type } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatRatio, markdownTable } from './harness.mjs';
import { keptSections, withKeptSections } from './kept.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = join(here, '..');
const benches = ['sign', 'replay', 'client', 'coldstart', 'emulator', 'adapters', 'otp'];
const args = process.argv.slice(2);
const wanted = args.length === 0 ? benches : args.includes('all') ? [...benches, 'instructions'] : args;
const out = process.env.BENCH_REPORT_FROM || mkdtempSync(join(tmpdir(), 'x-bench-'));
const report = join(root, 'BENCHMARKS.md');
const previous = existsSync(report) ? readFileSync(report, 'utf8') : '';
/** The sections other scripts write into BENCHMARKS.md, carried over by each rewrite. */
const CARRIED = ['volume'];
keptSections(previous); // an unclosed hand-written section stops the run before anything is measured
const load = () => loadavg().map((n) => n.toFixed(2)).join(', ');
const loadBefore = load();
const started = new Date();

// BENCH_REPORT_FROM=<dir>: writes the report from the results of an earlier run (its BENCH_OUT) without running anything.
for (const name of process.env.BENCH_REPORT_FROM ? [] : wanted) {
  console.log(`\n> ${name}.mjs`);
  // Instruction counts run under valgrind: slower than the timed benchmarks.
  const timeout = name === 'instructions' ? 40 * 60_000 : 10 * 60_000;
  const result = spawnSync(process.execPath, [join(here, `${name}.mjs`)], { stdio: 'inherit', env: { ...process.env, BENCH_OUT: out }, timeout });
  if (result.status !== 0) {
    console.error(`${name}.mjs failed (exit ${result.status ?? result.signal}).`);
    process.exit(1);
  }
}
const loadAfter = load();
const minutes = ((Date.now() - started.getTime()) / 60_000).toFixed(1);

const results = Object.fromEntries(readdirSync(out).map((file) => [file.replace(/\.json$/, ''), JSON.parse(readFileSync(join(out, file), 'utf8'))]));
// The size budgets, measured by size-limit (.size-limit.cjs): { name, size, sizeLimit } per entry.
const sizeRun = spawnSync(process.execPath, [join(root, 'node_modules', 'size-limit', 'bin.js'), '--json'], { cwd: root, encoding: 'utf8' });
const sizes = sizeRun.stdout.includes('[') ? JSON.parse(sizeRun.stdout.slice(sizeRun.stdout.indexOf('['))) : [];

/** A row of a result by the start of its name. */
const row = (id, name, source = results) => source[id]?.rows.find((r) => r.name.startsWith(name));
const ratio = (r, against) => {
  const x = r?.ratios.find((q) => q.against === against);
  return x ? formatRatio(x) : 'n/a';
};
const rate = (r) => (r ? Math.round(r.median).toLocaleString('en-US') : 'n/a');
const size = (entry) => sizes.find((s) => s.name === entry);

const summary = [
  ['Client SMS POST, default options, 32 in flight', 'client-c32', '@x/client, default options', 'req/s', ['official', 'node:http']],
  ['Client SMS POST, default options, 1 in flight', 'client-c1', '@x/client, default options', 'req/s', ['official', 'node:http']],
  ['Client with createNodeFetch + nodeMac, 32 in flight', 'client-c32', '@x/client, createNodeFetch', 'req/s', ['official', 'node:http']],
  ['Client with createNodeFetch + nodeMac, 1 in flight', 'client-c1', '@x/client, createNodeFetch', 'req/s', ['official', 'node:http']],
  ['Client, portable path (global fetch, pure HMAC), 32 in flight', 'client-c32', '@x/client, portable path', 'req/s', ['official', 'node:http']],
  ['Cold start: require + createClient(), installed (CPU time; below 1.00x is faster)', 'coldstart-require', '@x/client', 'CPU ms', ['official']],
  ['Cold start: import + createClient(), installed (CPU time; below 1.00x is faster)', 'coldstart-import', '@x/client', 'CPU ms', ['official']],
  ['Client SMS POST, default options, 32 in flight, by instructions (valgrind)', 'instructions-client', '@x/client, default options', 'req/M instr', ['official', 'node:http']],
  ['Pure signer (createSigner, default of browsers and workers)', 'sign', '@x/auth createSigner().sign, pure', 'signatures/s', ['official', 'floor']],
  ['Native signer (createSigner with nodeMac, the default on Node)', 'sign', '@x/auth createSigner({ mac: nodeMac })', 'signatures/s', ['official', 'floor']],
  ['Native signer (the default on Node), by instructions (valgrind)', 'instructions-sign', '@x/auth createSigner().sign on Node', 'sig/M instr', ['official', 'floor']],
  ['Fastify callback route with verification', 'adapters-fastify', '@x/fastify', 'req/s', [null, 'floor']],
  ['Fastify callback route with verification, by server CPU time', 'adapters-fastify-cpu', '@x/fastify', 'req/CPU-s', [null, 'floor']],
  ['Express callback route with verification', 'adapters-express', '@x/express', 'req/s', [null, 'floor']],
  ['Express callback route with verification, by server CPU time', 'adapters-express-cpu', '@x/express', 'req/CPU-s', [null, 'floor']],
  ['Fastify callback route with verification, by instructions (valgrind)', 'instructions-fastify', '@x/fastify xVerification (signature verified', 'req/M instr', [null, 'by hand', 'floor']],
  ['Express callback route with verification, by instructions (valgrind)', 'instructions-express', '@x/express verifyCallbacks (signature verified', 'req/M instr', [null, 'by hand', 'floor']],
  ['Memory replay store: claim at the cap', 'replay', 'claim at the cap', 'claims/s', [null, 'filling', 'expiring']],
  ['Emulator: signed SMS POSTs', 'emulator', 'emulator, POST /v1/messaging signed by @x/auth', 'req/s', [null, 'floor']],
  ['Emulator: signed SMS POSTs, by server CPU time', 'emulator-cpu', 'emulator, POST /v1/messaging signed by @x/auth', 'req/CPU-s', [null, 'floor']],
  ['Emulator: signed SMS POSTs, by server CPU time, both served at once', 'emulator-together', 'emulator, POST /v1/messaging signed by @x/auth', 'req/CPU-s', [null, 'floor']],
  ['Emulator: signed SMS POSTs, by instructions (valgrind)', 'instructions-emulator', 'emulator, POST /v1/messaging signed by @x/auth', 'req/M instr', [null, 'floor']],
  ['Emulator: transaction store full (each POST evicts the oldest)', 'emulator-store', 'store full', 'req/s', [null, 'below cap']],
  ["Emulator start: import + createEmulator() (CPU time; below 1.00x is faster)", 'emulator-start', '@x/emulator: import + createEmulator()', 'CPU ms', [null, 'msw']],
].filter(([, id]) => results[id]);

const floorName = { official: 'official client', 'node:http': 'node:http floor', floor: 'floor', 'by hand': 'the route verifying by hand (node:crypto)', 'below cap': 'the store below its cap', msw: "msw's setupServer with one handler", filling: 'a filling store below the cap', expiring: 'a store below the cap with keys expiring' };
/** What the header says about the file: generated, no history, the one section carried over. */
const GENERATED = 'Every section is generated from the last run and replaced by the next (`npm run bench`); do not edit by hand. The last section, "Sending at volume", is written by `node bench/volume.mjs` and carried over.';
const lines = [];
lines.push('# Benchmarks', '');
if (process.env.BENCH_REPORT_FROM) {
  const times = readdirSync(out).map((file) => statSync(join(out, file)).mtime.toISOString().slice(0, 16).replace('T', ' ')).sort();
  lines.push(`Written by bench/run.mjs from the results saved by runs of its benchmarks${times.length ? ` between ${times[0]} and ${times.at(-1)} UTC` : ''} (BENCH_REPORT_FROM). ${GENERATED}`, '');
} else lines.push(`Written by \`npm run bench\` (bench/run.mjs) on ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC in ${minutes} minutes. ${GENERATED}`, '');
lines.push('## Machine', '');
lines.push(`- ${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB memory; ${type()} ${release()}; Node ${process.version}.`);
if (!process.env.BENCH_REPORT_FROM) lines.push(`- Load average (1, 5, 15 min) at the start: ${loadBefore}; at the end: ${loadAfter}. Other processes (builds and tests) shared the ${cpus().length} cores, so absolute rates are noisy; the ratios are paired per round and are the figures to read.`, '');
else lines.push('');
lines.push('## Method', '');
lines.push('Every comparison runs its variants in one process (servers in child processes on 127.0.0.1): a warm-up of each, then at least 3 rounds (7, 9 or 15 here, see each table) in which every variant is measured once for the same time, the order rotated by one each round so that drift spreads over all variants. Each variant\'s rate is divided by each reference\'s rate of the same round; tables give the median of those ratios and their range (min-max). References: the official Node client `telesignsdk` where it has a counterpart, and the physical floor: bare `node:http` with keep-alive and `undici.request` for the client, `node:crypto` HMAC over the same string with the date formatted once a second for signing, the framework without the plugin for adapters, a trivial Hono route for the emulator.', '');
lines.push('The timed comparisons swing 10 to 20% from round to round on a shared 2-core machine, so read the ratios (paired per round) rather than the rates, and a ratio only against its range. The rows marked *by instructions (valgrind)* count instead of timing (bench/instructions.mjs): each server alone under valgrind\'s callgrind, warmed up uncounted, then the CPU instructions of a fixed number of requests (all threads; Node run single-threaded so that GC and compiler threads land the same way each run). Such a count usually repeats to within a few percent, with outliers now and then (each variant is counted twice, so a wide range shows one); it is not time (cache misses and native code differ), so both are reported. Ratios there are requests per instruction against the same floors: 0.95x means 5% more instructions per request.', '');
lines.push('## Summary', '');
lines.push('| What | Median | vs official | vs floor |', '|---|---:|---:|---:|');
for (const [label, id, name, unit, [official, ...floors]] of summary) {
  const r = row(id, name);
  const floorText = floors.map((f) => `${ratio(r, f)}${floors.length > 1 || f !== 'floor' ? ` vs ${floorName[f]}` : ''}`).join('; ');
  // Counted rows (instructions.mjs) read better as instructions per request than as their rate.
  // What a count is per (request, signature) is in the unit instructions.mjs wrote: '<per>s per million instructions'.
  const median = results[id].counted && r ? `${Math.round(1e6 / r.median).toLocaleString('en-US')} instructions/${results[id].unit.replace(/s per million instructions$/, '')}` : `${rate(r)} ${unit}`;
  lines.push(`| ${label} | ${median} | ${official ? ratio(r, official) : 'n/a (no official counterpart)'} | ${floorText} |`);
}
const signing = size('@x/auth: signRequest only');
if (signing) lines.push(`| @x/auth signing only (signRequest), min+gz | ${(signing.size / 1000).toFixed(2)} KB | | budget ${(signing.sizeLimit / 1000).toFixed(2)} KB |`);
lines.push('');

// The floors the repository keeps (docs/decisions.md, "Performance floors"): each one met or not by this run.
const floors = [];
for (const c of ['c1', 'c32']) {
  const q = row(`client-${c}`, '@x/client, default options')?.ratios.find((x) => x.against === 'official');
  if (q) floors.push(`Client SMS POST, default options, ${c.slice(1)} in flight: ${q.median.toFixed(2)}x the official client (range ${q.min.toFixed(2)}-${q.max.toFixed(2)}); floor at least 1.5x: ${q.median >= 1.5 ? 'met' : 'not met'}.`);
}
const cold = row('coldstart-require', '@x/client: require + createClient()')?.ratios.find((x) => x.against === 'official');
if (cold) floors.push(`Cold start, \`require\` + createClient() installed, by CPU time: ${cold.median.toFixed(2)}x the official client's (range ${cold.min.toFixed(2)}-${cold.max.toFixed(2)}; below 1.00x is faster); floor at most 1.00x: ${cold.median <= 1 ? 'met' : 'not met'}.`);
const emulatorRate = row('emulator', 'emulator, POST /v1/messaging signed by @x/auth');
if (emulatorRate) floors.push(`Emulator: ${rate(emulatorRate)} signed SMS POSTs a second; floor at least 5,000: ${emulatorRate.median >= 5000 ? 'met' : 'not met'}.`);
const start = row('emulator-start', '@x/emulator: import + createEmulator()')?.ratios.find((x) => x.against === 'msw');
if (start) floors.push(`Emulator start (import + createEmulator()), by CPU time: ${start.median.toFixed(2)}x msw's setupServer with one handler (range ${start.min.toFixed(2)}-${start.max.toFixed(2)}); floor at most 1.00x: ${start.median <= 1 ? 'met' : 'not met'}.`);
const signer = results.sign?.rows.find((r) => r.name.includes('default on Node'))?.ratios.find((x) => x.against === 'official');
if (signer) floors.push(`Signing with the Node default: ${signer.median.toFixed(2)}x the official client's header generation (range ${signer.min.toFixed(2)}-${signer.max.toFixed(2)}); floor at least 1.0x: ${signer.median >= 1 ? 'met' : 'not met'}.`);
if (signing) floors.push(`@x/auth signing only: ${(signing.size / 1000).toFixed(2)} KB min+gz; at most 5.5 KB: ${signing.size <= 5500 ? 'met' : 'not met'}.`);
if (floors.length) lines.push('## Floors', '', ...floors.map((g) => `- ${g}`), '');

lines.push('## Every comparison', '');
for (const id of ['sign', 'instructions-sign', 'replay', 'client-c32', 'client-c1', 'coldstart-require', 'coldstart-import', 'coldstart-require-wall', 'coldstart-import-wall', 'instructions-client', 'emulator', 'emulator-cpu', 'emulator-together', 'instructions-emulator', 'emulator-store', 'emulator-start', 'adapters-express', 'adapters-express-cpu', 'instructions-express', 'adapters-fastify', 'adapters-fastify-cpu', 'instructions-fastify']) {
  const result = results[id];
  if (!result) continue;
  lines.push(`### ${result.title}`, '');
  if (result.counted) lines.push(`Each variant counted ${result.rounds} times over ${result.counted} requests after ${result.warmup} uncounted ones, each count paired with the floor's of the same repetition.${result.notes.length ? ` ${result.notes.join(' ')}` : ''}`, '');
  else if (result.together) lines.push(`${result.rounds} rounds of ${result.ms / 1000} s after ${result.warmupMs / 1000} s uncounted, both variants at once.${result.notes.length ? ` ${result.notes.join(' ')}` : ''}`, '');
  else if (result.processes) lines.push(`${result.rounds} rounds, each variant a fresh process per round, order rotated.${result.notes.length ? ` ${result.notes.join(' ')}` : ''}`, '');
  else lines.push(`${result.rounds} rounds of ${result.ms} ms per variant after a ${result.warmupMs} ms warm-up, order rotated.${result.notes.length ? ` ${result.notes.join(' ')}` : ''}`, '');
  lines.push(markdownTable(result), '');
}

if (results.install) {
  lines.push('## Install footprint', '');
  lines.push('The built packages packed and installed with npm into an empty project (no workspace links), beside the official client; every folder with a package.json under node_modules counts as a package.', '');
  lines.push('| Install | Packages | Unpacked |', '|---|---:|---:|');
  for (const r of results.install.rows) lines.push(`| \`${r.name}\` | ${r.packages} | ${(r.bytes / 1e6).toFixed(2)} MB |`);
  lines.push('');
}

// bench/otp.mjs: its own rows (decisions per second and Redis round trips), not a paired comparison.
if (results.otp) {
  const { ms, node, load, rows } = results.otp;
  lines.push('## @x/otp: guard decisions', '');
  lines.push(`From bench/otp.mjs (${node}, ${ms} ms per row, load average ${load.join(' then ')}). Each decision runs the default limits (number, IP, range, account), the pumping detector and a global budget, on numbers spread over many ranges; the Redis rows use a real redis-server on 127.0.0.1 started by the benchmark. Round trips are counted on the client: one script per decision, whatever the number of limits. Rates are wall time on the shared machine; the round trips do not move with the load.`, '');
  lines.push('| Store | Decisions/s | Decisions | Allowed | Redis round trips per decision |', '|---|---:|---:|---:|---:|');
  for (const r of rows) lines.push(`| ${r.name} | ${r.perSecond.toLocaleString('en-US')} | ${r.done} | ${r.allowed} | ${r.roundTrips.toFixed(2)} |`);
  lines.push('');
}

if (sizes.length) {
  lines.push('## Sizes', '');
  lines.push('Each entry bundled with its dependencies by size-limit\'s esbuild preset (ESM, minified, tree-shaken) and gzipped, as a user\'s bundler ships it (`.size-limit.cjs`). `npm test` gates them (task `release`): an entry over its budget fails, naming the entry, its size and its budget.', '');
  lines.push('| Entry | min+gz | budget | headroom |', '|---|---:|---:|---:|');
  for (const s of sizes) lines.push(`| ${s.name} | ${s.size} B | ${s.sizeLimit} B | ${(((s.sizeLimit - s.size) / s.size) * 100).toFixed(1)}% |`);
  lines.push('');
}

const carried = keptSections(previous, CARRIED);
writeFileSync(report, withKeptSections(lines.join('\n'), previous, CARRIED));
console.log(`\nWrote BENCHMARKS.md (${Object.keys(results).length} comparisons, ${sizes.length} sizes, ${carried.length} section carried over from bench/volume.mjs).`);

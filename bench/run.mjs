// `npm run bench`: runs every benchmark in its own process (one after the other, so they do not
// compete), then writes BENCHMARKS.md at the repository root: machine, date, load, method, the
// summary rows, every comparison in full, the sizes with their budgets, and the before/after of
// issue 13 from bench/baseline/ (figures recorded with the same benchmarks on the code before it),
// and the hand-written sections of the previous file (between `<!-- kept: name -->` markers, kept.mjs).
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
const baselineDir = join(here, 'baseline');
const baseline = existsSync(baselineDir)
  ? Object.fromEntries(readdirSync(baselineDir).filter((f) => f.endsWith('.json')).map((file) => [file.replace(/\.json$/, ''), JSON.parse(readFileSync(join(baselineDir, file), 'utf8'))]))
  : {};
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
].filter(([, id]) => results[id]);

const floorName = { official: 'official client', 'node:http': 'node:http floor', floor: 'floor', 'by hand': 'the route verifying by hand (node:crypto)', 'below cap': 'the store below its cap', filling: 'a filling store below the cap', expiring: 'a store below the cap with keys expiring' };
const lines = [];
lines.push('# Benchmarks', '');
if (process.env.BENCH_REPORT_FROM) {
  const times = readdirSync(out).map((file) => statSync(join(out, file)).mtime.toISOString().slice(0, 16).replace('T', ' ')).sort();
  lines.push(`Written by bench/run.mjs from the results saved by runs of its benchmarks${times.length ? ` between ${times[0]} and ${times.at(-1)} UTC` : ''} (BENCH_REPORT_FROM). Edit by hand only the sections between *kept* markers (HTML comments, carried over by each rewrite); run \`npm run bench\` again for the rest.`, '');
} else lines.push(`Written by \`npm run bench\` (bench/run.mjs) on ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC in ${minutes} minutes. Edit by hand only the sections between *kept* markers (HTML comments, carried over by each rewrite); run it again for the rest.`, '');
lines.push('## Machine', '');
lines.push(`- ${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB memory; ${type()} ${release()}; Node ${process.version}.`);
if (!process.env.BENCH_REPORT_FROM) lines.push(`- Load average (1, 5, 15 min) at the start: ${loadBefore}; at the end: ${loadAfter}. Other processes (builds and tests) shared the ${cpus().length} cores, so absolute rates are noisy; the ratios are paired per round and are the figures to read.`, '');
else lines.push('');
lines.push('## Method', '');
lines.push('Every comparison runs its variants in one process (servers in child processes on 127.0.0.1): a warm-up of each, then at least 3 rounds (7, 9 or 15 here, see each table) in which every variant is measured once for the same time, the order rotated by one each round so that drift spreads over all variants. Each variant\'s rate is divided by each reference\'s rate of the same round; tables give the median of those ratios and their range (min-max). References: the official Node client `telesignsdk` where it has a counterpart, and the physical floor: bare `node:http` with keep-alive and `undici.request` for the client, `node:crypto` HMAC over the same string with the date formatted once a second for signing, the framework without the plugin for adapters, a trivial Hono route for the emulator.', '');
lines.push('The timed comparisons swing 10 to 20% from round to round on a shared 2-core machine, which is wider than a 5% goal. The rows marked *by instructions (valgrind)* count instead of timing (bench/instructions.mjs): each server alone under valgrind\'s callgrind, warmed up uncounted, then the CPU instructions of a fixed number of requests (all threads; Node run single-threaded so that GC and compiler threads land the same way each run). Such a count usually repeats to within a few percent, with outliers now and then (each variant is counted twice, so a wide range shows one); it is not time (cache misses and native code differ), so both are reported. Ratios there are requests per instruction against the same floors: 0.95x means 5% more instructions per request.', '');
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

const goals = [];
const pure = row('sign', '@x/auth createSigner().sign, pure')?.ratios.find((q) => q.against === 'official');
if (pure) goals.push(`Pure signer (@noble/hashes' public hmac, the default of browsers and workers) at least 0.4x the official client (native HMAC; issue 21): ${pure.median.toFixed(2)}x, ${pure.median >= 0.4 ? 'met' : 'not met'}.`);
const atCap = row('replay', 'claim at the cap');
for (const against of ['filling', 'expiring']) {
  const q = atCap?.ratios.find((x) => x.against === against);
  if (q) goals.push(`Replay store: a claim at the cap costs ${(1 / q.median).toFixed(2)}x a claim below the cap (${floorName[against]}); goal at most 2x: ${1 / q.median <= 2 ? 'met' : 'not met'}.`);
}
for (const c of ['c1', 'c32']) {
  const r = row(`client-${c}`, '@x/client, default options');
  const q = r?.ratios.find((x) => x.against === 'official');
  if (q) goals.push(`Client SMS POST, default options, ${c.slice(1)} in flight: ${q.median.toFixed(2)}x the official client (range ${q.min.toFixed(2)}-${q.max.toFixed(2)}); goal at least 1.3x: ${q.median >= 1.3 ? 'met' : 'not met'}.`);
}
const floor32 = row('client-c32', '@x/client, default options')?.ratios.find((x) => x.against === 'node:http');
if (floor32) goals.push(`Client SMS POST, default options, 32 in flight: ${floor32.median.toFixed(2)}x the bare node:http floor; goal at least 0.6x: ${floor32.median >= 0.6 ? 'met' : 'not met'}.`);
const counted = row('instructions-client', '@x/client, default options');
if (counted) {
  const [official, http] = ['official', 'node:http'].map((against) => counted.ratios.find((x) => x.against === against).median);
  goals.push(`Client SMS POST, default options, 32 in flight, by instructions per send (valgrind): ${official.toFixed(2)}x the official client (goal at least 1.3x: ${official >= 1.3 ? 'met' : 'not met'}), ${http.toFixed(2)}x the bare node:http floor (goal at least 0.6x: ${http >= 0.6 ? 'met' : 'not met'}).`);
}
// Native signing, timed and counted (issues 20 and 21).
for (const [id, name, goal] of [
  ['sign', '@x/auth createSigner({ mac: nodeMac })', 'Signing with the Node default (native HMAC, what createClient uses on Node) at least 1.2x the official client'],
  ['instructions-sign', '@x/auth createSigner().sign on Node', 'Signing with the Node default at least 1.2x the official client, by instructions per signature (valgrind)'],
]) {
  const q = row(id, name)?.ratios.find((x) => x.against === 'official');
  if (q) goals.push(`${goal}: ${q.median.toFixed(2)}x, ${q.median >= 1.2 ? 'met' : 'not met'}.`);
}
for (const fw of ['express', 'fastify']) {
  for (const [suffix, what] of [['', 'req/s'], ['-cpu', 'server CPU time']]) {
    const q = row(`adapters-${fw}${suffix}`, `@x/${fw}`)?.ratios.find((x) => x.against === 'floor');
    const own = results[`adapters-${fw}${suffix}`]?.rows.find((r) => r.name.includes('HMAC stubbed'))?.ratios.find((x) => x.against === 'floor');
    const split = own ? ` (with the HMAC stubbed: ${((1 - own.median) * 100).toFixed(0)}%, so the HMAC itself is about ${((own.median - q.median) * 100).toFixed(0)} points)` : '';
    if (q) goals.push(`${fw === 'express' ? 'Express' : 'Fastify'} callback route with verification, by ${what}: ${q.median.toFixed(2)}x the route without the plugin (${((1 - q.median) * 100).toFixed(0)}% cost${split}); goal at most 5%: ${q.median >= 0.95 ? 'met' : 'not met'}.`);
  }
}
for (const fw of ['express', 'fastify']) {
  const result = results[`instructions-${fw}`];
  // Extra instructions per request, in % of a reference's: the goal (issue 21) is read against the
  // same route verifying by hand with node:crypto (the HMAC is the floor), the route without the plugin is context.
  const cost = (r, against) => r && (1 / r.ratios.find((x) => x.against === against).median - 1) * 100;
  const verified = result?.rows[0];
  const byHand = verified?.ratios.some((x) => x.against === 'by hand');
  if (verified && byHand) goals.push(`${fw === 'express' ? 'Express' : 'Fastify'} callback route with verification, by instructions per request (valgrind): ${cost(verified, 'by hand').toFixed(1)}% more than the same route verifying by hand with node:crypto (${cost(verified, 'floor').toFixed(0)}% more than the route without verification); goal at most 5% over the hand-written route: ${cost(verified, 'by hand') <= 5 ? 'met' : 'not met'}.`);
}
for (const kind of ['require', 'import']) {
  // Issue 20: no slower than the official client (a ratio of CPU time, so at most 1.00x).
  const q = row(`coldstart-${kind}`, `@x/client: ${kind} + createClient()`)?.ratios.find((x) => x.against === 'official');
  if (q) goals.push(`Cold start, \`${kind}\` + createClient() installed, by CPU time: ${q.median.toFixed(2)}x the official client's (range ${q.min.toFixed(2)}-${q.max.toFixed(2)}; below 1.00x is faster); goal no slower (at most 1.00x): ${q.median <= 1 ? 'met' : 'not met'}.`);
}
const emu = row('emulator', 'emulator, POST /v1/messaging signed by @x/auth')?.ratios.find((x) => x.against === 'floor');
if (emu) goals.push(`Emulator at least 0.4x a trivial Hono route: ${emu.median.toFixed(2)}x (range ${emu.min.toFixed(2)}-${emu.max.toFixed(2)}), ${emu.median >= 0.4 ? 'met' : 'not met'}.`);
const emuTogether = row('emulator-together', 'emulator, POST /v1/messaging signed by @x/auth')?.ratios.find((x) => x.against === 'floor');
if (emuTogether) goals.push(`Emulator at least 0.4x a trivial Hono route, by server CPU time with both served at once on one core: ${emuTogether.median.toFixed(2)}x (range ${emuTogether.min.toFixed(2)}-${emuTogether.max.toFixed(2)}), ${emuTogether.median >= 0.4 ? 'met' : 'not met'}.`);
const emuInstr = row('instructions-emulator', 'emulator, POST /v1/messaging signed by @x/auth')?.ratios[0];
if (emuInstr) goals.push(`Emulator at least 0.4x a trivial Hono route, by instructions per request (valgrind): ${emuInstr.median.toFixed(2)}x, ${emuInstr.median >= 0.4 ? 'met' : 'not met'}.`);
if (signing) goals.push(`@x/auth signing only: ${(signing.size / 1000).toFixed(2)} KB min+gz; goal at most 5.0 KB: ${signing.size <= 5000 ? 'met' : 'not met'}.`);
const client = size('@x/client (everything, with @x/auth)');
const createClientOnly = size('@x/client: createClient only');
if (client) goals.push(`@x/client: ${(client.size / 1000).toFixed(2)} KB min+gz${createClientOnly ? ` (createClient alone ${(createClientOnly.size / 1000).toFixed(2)} KB)` : ''}; goal at most 10 KB: ${client.size <= 10_000 ? 'met' : 'not met (out of reach without dropping behaviour: docs/decisions.md, "Client: no modular entry for bundle size")'}.`);
if (goals.length) lines.push('Goals of issue 13:', '', ...goals.map((g) => `- ${g}`), '');

lines.push('## Every comparison', '');
for (const id of ['sign', 'instructions-sign', 'replay', 'client-c32', 'client-c1', 'coldstart-require', 'coldstart-import', 'coldstart-require-wall', 'coldstart-import-wall', 'instructions-client', 'emulator', 'emulator-cpu', 'emulator-together', 'instructions-emulator', 'emulator-store', 'adapters-express', 'adapters-express-cpu', 'instructions-express', 'adapters-fastify', 'adapters-fastify-cpu', 'instructions-fastify']) {
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
  lines.push('| Entry | min+gz | budget |', '|---|---:|---:|');
  for (const s of sizes) lines.push(`| ${s.name} | ${s.size} B | ${s.sizeLimit} B |`);
  lines.push('');
}

const before = Object.keys(baseline).filter((id) => results[id]);
if (before.length) {
  const meta = baseline.meta ?? {};
  lines.push('## Before and after issue 13', '');
  lines.push(`Same benchmarks, same machine: "before" ran on the code before issue 13 (${meta.commit ?? 'see bench/baseline'}), ${meta.date ?? ''}, load average ${meta.load ?? 'n/a'}; "after" is this run. Rates move with the load; compare the ratios.`, '');
  lines.push('| Benchmark | Variant | Before | After | Before, ratio | After, ratio |', '|---|---|---:|---:|---:|---:|');
  for (const id of before) {
    const refs = results[id].references.map((r) => r.role);
    for (const after of results[id].rows) {
      const then = baseline[id].rows.find((r) => r.name === after.name);
      if (!then) continue;
      const cells = (r) => refs.map((ref) => `${ratio(r, ref)} vs ${ref}`).join('<br>');
      lines.push(`| ${id} | ${after.name} | ${rate(then)} | ${rate(after)} | ${cells(then)} | ${cells(after)} |`);
    }
  }
  lines.push('');
}

const kept = keptSections(previous);
writeFileSync(report, withKeptSections(lines.join('\n'), previous));
console.log(`\nWrote BENCHMARKS.md (${Object.keys(results).length} comparisons, ${sizes.length} sizes, ${kept.length} hand-written sections kept).`);

// The one harness every benchmark uses. A comparison runs its variants interleaved: a warm-up of
// each, then `rounds` rounds in which every variant is measured once, the order rotated by one each
// round, so that drift (other processes, heat, GC state) spreads over all variants instead of
// landing in one. Ratios are paired: a variant's rate is divided by each reference's rate of the
// same round; the median and the range of those per-round ratios are reported.
//
// Settings (environment): BENCH_MS (time per measurement, default per comparison), BENCH_ROUNDS
// (default 5, at least 3), BENCH_WARMUP_MS, BENCH_OUT (a directory: each comparison is also saved
// there as JSON, for the BENCHMARKS.md report).
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const env = (name, fallback) => (process.env[name] === undefined || process.env[name] === '' ? fallback : Number(process.env[name]));

/** The sorted copy's middle value (mean of the two middle ones for an even count). */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * A measurement of a synchronous function: calls it in batches for `ms` milliseconds of wall time
 * and returns calls per second of this process's CPU time (user + system, all its threads, so GC
 * counts). CPU time, not wall time: on a shared machine the time spent waiting for a core is not
 * the function's. Batches grow so that reading the clock costs nothing next to the work.
 */
export function loop(fn) {
  return async (ms) => {
    let count = 0;
    let batch = 1;
    const cpu = process.cpuUsage();
    const end = performance.now() + ms;
    let now = performance.now();
    while (now < end) {
      const t = now;
      for (let i = 0; i < batch; i++) fn();
      count += batch;
      now = performance.now();
      if (now - t < 1) batch *= 2;
    }
    const used = process.cpuUsage(cpu);
    return count / ((used.user + used.system) / 1e6);
  };
}

/** A measurement of an async operation run by `concurrency` workers for `ms`: operations per second. */
export function concurrently(fn, concurrency) {
  return async (ms) => {
    let count = 0;
    const start = performance.now();
    const end = start + ms;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (performance.now() < end) {
          await fn();
          count++;
        }
      }),
    );
    return count / ((performance.now() - start) / 1000);
  };
}

/**
 * Runs one comparison. `variants`: `{ name, measure(ms) => Promise<rate> }`, optionally `role` (a
 * short label such as 'official' or 'floor': every variant with a role is a reference that all
 * variants get a ratio against) and `note`. Returns the result (also printed, and saved under
 * BENCH_OUT).
 */
export async function compare({ id, title, unit = 'ops/s', variants, ms: defaultMs = 400, rounds: defaultRounds = 5, warmupMs, notes = [] }) {
  const ms = env('BENCH_MS', defaultMs);
  const rounds = Math.max(3, env('BENCH_ROUNDS', defaultRounds));
  const warm = env('BENCH_WARMUP_MS', warmupMs ?? ms);
  const references = variants.filter((v) => v.role);
  const rates = variants.map(() => []);

  for (const variant of variants) await variant.measure(warm);
  for (let round = 0; round < rounds; round++) {
    const rate = new Array(variants.length);
    for (let k = 0; k < variants.length; k++) {
      const index = (k + round) % variants.length;
      rate[index] = await variants[index].measure(ms);
    }
    rate.forEach((r, i) => rates[i].push(r));
  }

  const result = {
    id,
    title,
    unit,
    ms,
    rounds,
    warmupMs: warm,
    notes,
    references: references.map((r) => ({ name: r.name, role: r.role })),
    rows: pairedRows(variants, rates, references.map((r) => r.role)),
  };
  report(result);
  return result;
}

/**
 * For a process that instructions.mjs runs under valgrind and that counts itself: `run(n)` does n
 * operations (sync or async); BENCH_CALLGRIND_WARMUP of them uncounted, then callgrind's counting
 * switched on around BENCH_CALLGRIND_REQUESTS more.
 */
export async function countSelf(run) {
  await run(Number(process.env.BENCH_CALLGRIND_WARMUP));
  execFileSync('callgrind_control', ['-i', 'on', String(process.pid)]);
  await run(Number(process.env.BENCH_CALLGRIND_REQUESTS));
  execFileSync('callgrind_control', ['-i', 'off', String(process.pid)]);
}

/**
 * The URL a server child process serves (it prints `URL <url>` on stdout); rejects with `why()`
 * when the process exits first.
 */
export function servedUrl(child, exited, why) {
  return Promise.race([
    new Promise((resolve) => {
      let out = '';
      child.stdout.on('data', (chunk) => {
        out += chunk;
        const found = /URL (\S+)/.exec(out);
        if (found) resolve(found[1]);
      });
    }),
    exited.then(() => Promise.reject(new Error(why()))),
  ]);
}

/** The median and the range of some values. */
export const spread = (values) => ({ median: median(values), min: Math.min(...values), max: Math.max(...values) });

/**
 * The rows of a comparison against its references (the variants with these roles, default the one
 * whose role is 'floor') from each variant's rates, measured round by round: every rate paired
 * with each reference's of the same round.
 */
export function pairedRows(variants, rates, roles = ['floor']) {
  const of = (role) => rates[variants.findIndex((v) => v.role === role)];
  return variants.map((v, i) => ({
    name: v.name,
    role: v.role ?? null,
    note: v.note ?? null,
    ...spread(rates[i]),
    ratios: roles.map((role) => ({ against: role, ...spread(rates[i].map((r, k) => r / of(role)[k])) })),
  }));
}

/** What a fresh-process script prints to be timed: put `TIMED_START` before the work and `TIMED_END` after it. */
export const TIMED_START = 'const t = performance.now(); const c = process.cpuUsage();';
export const TIMED_END = 'const u = process.cpuUsage(c); console.log(performance.now() - t, (u.user + u.system) / 1000);';

/**
 * Times each variant in fresh processes: `run(variant)` spawns one (its script printing between
 * TIMED_START and TIMED_END) and returns the spawnSync result. One uncounted run each (the file
 * system cache), then `rounds` rounds, the order rotated by one each round. The wall and CPU
 * milliseconds of every run, per variant.
 */
export function timedInFreshProcesses(variants, rounds, run) {
  const once = (v) => {
    const result = run(v);
    const [wall, cpu] = result.stdout.trim().split(' ').map(Number);
    if (result.status !== 0 || !Number.isFinite(wall) || !Number.isFinite(cpu)) throw new Error(`${v.name}: ${result.stderr}`);
    return { wall, cpu };
  };
  for (const v of variants) once(v);
  const walls = variants.map(() => []);
  const cpus = variants.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < variants.length; k++) {
      const i = (k + round) % variants.length;
      const { wall, cpu } = once(variants[i]);
      walls[i].push(wall);
      cpus[i].push(cpu);
    }
  }
  return { walls, cpus };
}

/** Prints a result and saves it under BENCH_OUT (for the BENCHMARKS.md report). */
export function report(result) {
  console.log(textTable(result));
  if (process.env.BENCH_OUT) {
    mkdirSync(process.env.BENCH_OUT, { recursive: true });
    writeFileSync(join(process.env.BENCH_OUT, `${result.id}.json`), JSON.stringify(result, null, 2));
  }
}

const rate = (n) => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toPrecision(3));
/** A ratio as the tables print it: median and range (no range when there is one value, e.g. BENCH_CALLGRIND_REPEAT=1). */
export const formatRatio = (r) => (r.min === r.max ? `${r.median.toFixed(2)}x` : `${r.median.toFixed(2)}x (${r.min.toFixed(2)}-${r.max.toFixed(2)})`);

/** A plain-text table for the terminal. */
export function textTable(result) {
  const head = ['variant', `median ${result.unit}`, ...result.references.map((r) => `vs ${r.role}`)];
  const body = result.rows.map((row) => [row.name, rate(row.median), ...row.ratios.map(formatRatio)]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  const refs = result.references.map((r) => `${r.role} = ${r.name}`).join('; ');
  const how = result.counted ? `counted ${result.rounds} times per variant` : `${result.rounds} rounds x ${result.ms} ms, ${result.together ? 'all variants at once' : 'order rotated'}; ratio = median (min-max) of per-round ratios`;
  return [`\n${result.title} (${how})`, refs, line(head), ...body.map(line)].join('\n');
}

/** A Markdown table for BENCHMARKS.md. */
export function markdownTable(result) {
  const head = ['Variant', `Median ${result.unit}`, ...result.references.map((r) => `vs ${r.role}: ${r.name}`)];
  const rows = result.rows.map((row) => [row.note ? `${row.name} (${row.note})` : row.name, rate(row.median), ...row.ratios.map((r) => (row.role && result.references.find((ref) => ref.name === row.name && ref.role === r.against) ? '1' : formatRatio(r)))]);
  return [head, head.map((_, i) => (i === 0 ? '---' : '---:')), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

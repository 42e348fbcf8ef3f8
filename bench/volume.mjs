// Sending at volume (@x/client/volume): what a paced send costs in round trips, and the aggregate
// rate N processes hold on one Redis limiter against the configured one. Rewrites its own kept
// section of BENCHMARKS.md ("volume"); `node bench/volume.mjs` (packages built, redis-server installed).
//
// Round trips: scripts run on Redis (INFO commandstats: EVAL and EVALSHA calls; every store
// operation is one script) and HTTP requests (the client's onRequest hook) per item of a sendMany run of 200 items, for each setup.
// Aggregate rate: N child processes, each with 8 callers that acquire a slot and wait for it, for
// 4 s at a configured 200/s (burst 1), all starting at one moment once every process is up; the
// rate is the slots taken over the span from the first to the last, all processes merged.
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createClient } from '@x/client';
import { createIdempotency } from '@x/client/idempotency';
import { createSpendCap, sendMany } from '@x/client/volume';
import { DEFAULT_CUSTOMER } from '@x/emulator';
import { startEmulator } from '@x/emulator/node';
import { createRedisRateLimitStore, createRedisReplayStore, createRedisSpendStore } from '@x/redis';
import { Redis } from 'ioredis';

const RATE = { perSecond: 200, burst: 1 };
const SECONDS = 4;

if (process.argv[2] === 'child') {
  // One process of the aggregate-rate run: prints the times its slots came.
  const [, , , port, start, until] = process.argv;
  const redis = new Redis(Number(port), '127.0.0.1');
  const store = createRedisRateLimitStore({ client: redis, prefix: 'bench:' });
  const times = [];
  await redis.ping();
  await new Promise((r) => setTimeout(r, Number(start) - Date.now()));
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (Date.now() < Number(until)) {
        const wait = await store.acquire('aggregate', RATE);
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        if (Date.now() <= Number(until)) times.push(Date.now());
      }
    }),
  );
  redis.disconnect();
  process.stdout.write(JSON.stringify(times));
  process.exit(0);
}

const free = async () => {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address();
  probe.close();
  return port;
};
const port = await free();
const server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
const redis = new Redis(port, '127.0.0.1');
await redis.ping();
const emulator = await startEmulator({ deliveryDelayMs: 60_000 });

const commands = async () => {
  const stats = await redis.info('commandstats');
  return [...stats.matchAll(/^cmdstat_(?:eval|evalsha):calls=(\d+)/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
};
const ITEMS = 200;
let run = 0;
async function roundTrips(name, make) {
  run++;
  let http = 0;
  const { client, options } = make(() => http++);
  const items = Array.from({ length: ITEMS }, (_, i) => ({ id: `u${i}`, params: { phoneNumber: `1555${run}${String(i).padStart(6, '0')}`, message: `Hi ${i}, your order shipped`, messageType: 'ARN' } }));
  // One warm-up item (scripts loaded), then the measured run.
  for await (const _ of sendMany(client, [{ ...items[0], id: 'warm-up' }], { ...options, runId: `warm-${run}` }));
  http = 0;
  const before = await commands();
  let sent = 0;
  for await (const r of sendMany(client, items, { ...options, runId: `run-${run}`, concurrency: 8 })) sent += r.status === 'sent' ? 1 : 0;
  const redisCalls = (await commands()) - before;
  if (sent !== ITEMS) throw new Error(`${name}: ${sent} of ${ITEMS} sent`);
  return { name, redis: redisCalls / ITEMS, http: http / ITEMS };
}

const client = (count, store) => createClient({ ...DEFAULT_CUSTOMER, baseUrl: emulator.url, hooks: { onRequest: count }, idempotency: createIdempotency(store ? { store } : {}) });
const rows = [];
rows.push(await roundTrips('memory idempotency, no rate, no cap', (count) => ({ client: client(count), options: {} })));
rows.push(
  await roundTrips('memory idempotency, memory rate (1 000/s)', (count) => ({ client: client(count), options: { rate: { perSecond: 1_000 } } })),
);
rows.push(
  await roundTrips('Redis idempotency + Redis rate (1 000/s)', (count) => ({
    client: client(count, createRedisReplayStore({ client: redis, prefix: 'bench:' })),
    options: { rate: { perSecond: 1_000, store: createRedisRateLimitStore({ client: redis, prefix: 'bench:' }) } },
  })),
);
rows.push(
  await roundTrips('Redis idempotency + Redis rate + Redis spend cap (1 budget) + resume', (count) => {
    const idempotency = createIdempotency({ store: createRedisReplayStore({ client: redis, prefix: 'bench:' }) });
    return {
      client: createClient({ ...DEFAULT_CUSTOMER, baseUrl: emulator.url, hooks: { onRequest: count }, idempotency }),
      options: {
        rate: { perSecond: 1_000, store: createRedisRateLimitStore({ client: redis, prefix: 'bench:' }) },
        spend: createSpendCap({ store: createRedisSpendStore({ client: redis, prefix: 'bench:' }), budgets: [{ name: 'day', max: 1_000_000, periodMs: 86_400_000 }] }),
        resume: { idempotency, customerId: DEFAULT_CUSTOMER.customerId },
      },
    };
  }),
);

const aggregate = [];
for (const processes of [1, 2, 3]) {
  await redis.del('bench:aggregate');
  const start = Date.now() + 5_000; // every process up and connected before it
  const until = start + SECONDS * 1_000;
  const self = fileURLToPath(import.meta.url);
  const outs = await Promise.all(Array.from({ length: processes }, () => promisify(execFile)(process.execPath, [self, 'child', String(port), String(start), String(until)], { timeout: 60_000 })));
  const times = outs.flatMap(({ stdout }) => JSON.parse(stdout)).sort((a, b) => a - b);
  const rate = ((times.length - 1) * 1_000) / (times.at(-1) - times[0]);
  aggregate.push({ processes, slots: times.length, rate });
}

await emulator.close();
await redis.quit();
server.kill('SIGTERM');

const f1 = (n) => n.toFixed(1);
const section = [
  '<!-- kept: volume -->',
  `## Sending at volume: round trips per paced send, and N processes on one Redis limiter (\`node bench/volume.mjs\`, ${new Date().toISOString().slice(0, 10)})`,
  '',
  `A \`sendMany\` run of ${ITEMS} items through the emulator (concurrency 8) per setup: scripts run on Redis (INFO commandstats, EVAL and EVALSHA: each store operation is one script, one round trip) and HTTP requests per item.`,
  '',
  '| Setup | Redis round trips per send | HTTP requests per send |',
  '|---|---:|---:|',
  ...rows.map((r) => `| ${r.name} | ${f1(r.redis)} | ${f1(r.http)} |`),
  '',
  `Aggregate rate on one Redis limiter (\`createRedisRateLimitStore\`), configured at ${RATE.perSecond}/s (burst ${RATE.burst}): N processes of 8 callers each acquire a slot and wait for it, for ${SECONDS} s from one start; all processes' slots merged.`,
  '',
  '| Processes | Slots | Aggregate rate | Against the configured rate |',
  '|---:|---:|---:|---:|',
  ...aggregate.map((a) => `| ${a.processes} | ${a.slots} | ${f1(a.rate)}/s | ${(((a.rate - RATE.perSecond) / RATE.perSecond) * 100).toFixed(1)}% |`),
  '',
  `Machine: ${cpus().length} cores shared with other work (load average ${f1(loadavg()[0])} at the end): a process the scheduler stalls takes its slots late, which lowers the measured rate; a few tenths of a percent either way are timer and millisecond granularity. Slots are reserved in order on Redis's clock, so no process can take more than its turn.`,
  '<!-- /kept: volume -->',
].join('\n');

const file = fileURLToPath(new URL('../BENCHMARKS.md', import.meta.url));
const text = readFileSync(file, 'utf8');
const existing = /^<!-- kept: volume -->\n[\s\S]*?^<!-- \/kept: volume -->$/m;
writeFileSync(file, existing.test(text) ? text.replace(existing, section) : `${text.trimEnd()}\n\n${section}\n`);
console.log(section);

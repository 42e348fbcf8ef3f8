// @x/otp: guard decisions per second, in memory and on a real redis-server (started here on a free
// port of 127.0.0.1, stopped by its PID), and the Redis round trips each decision costs (counted
// on the client). Every decision runs the default policy (limits per number, IP, range, account),
// the pumping detector and a global budget, on numbers spread over many ranges, with the clock
// moving so windows stay below their limits. Run: node bench/otp.mjs, or as part of `npm run bench`
// (run.mjs gives it BENCH_OUT: the rows are saved there as otp.json for the BENCHMARKS.md report).
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { createGuard, createMemoryStore } from '@x/otp';
import { createRedisStore } from '@x/otp/redis';

const DURATION_MS = Number(process.env.OTP_BENCH_MS ?? 3000);
const numbers = Array.from({ length: 1 << 16 }, (_, i) => `4477009${String(i * 7919 % 100_000).padStart(5, '0')}`);
const ips = Array.from({ length: 256 }, (_, i) => `198.51.100.${i}`);

const guardOn = (store) => {
  let at = 1_800_000_000_000;
  return createGuard({ store, now: () => (at += 10_000), budget: { maxPerMinute: 100_000 }, limits: { prefix: { max: 1_000, windowMs: 600_000 } } });
};

async function rate(guard, inFlight) {
  let done = 0;
  let allowed = 0;
  const end = performance.now() + DURATION_MS;
  const worker = async (w) => {
    for (let i = w; performance.now() < end; i += inFlight) {
      const decision = await guard.check({ phoneNumber: numbers[i & 0xffff], ip: ips[i & 0xff], account: `a${i & 0xfff}` });
      done++;
      if (decision.allowed) allowed++;
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: inFlight }, (_, w) => worker(w)));
  return { perSecond: Math.round(done / ((performance.now() - start) / 1000)), done, allowed };
}

const freePort = () => new Promise((resolve) => {
  const server = createServer().listen(0, '127.0.0.1', () => {
    const { port } = server.address();
    server.close(() => resolve(port));
  });
});

const rows = [];
const loadBefore = loadavg()[0];
const memory = guardOn(createMemoryStore());
await rate(memory, 1); // warm up
rows.push(['memory, 1 at a time', await rate(memory, 1), 0]);

const port = await freePort();
const server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
try {
  const redis = new Redis(port, '127.0.0.1', { retryStrategy: (n) => (n > 50 ? null : 50) });
  redis.on('error', () => {}); // refused while redis-server starts; ping waits for it
  await redis.ping();
  let evals = 0;
  // The real client, with its EVALs counted (the stores take only a client they recognise).
  const counted = new Proxy(redis, {
    get(target, name) {
      const value = Reflect.get(target, name, target);
      if (name === 'eval' && typeof value === 'function') return (...args) => (evals++, value.apply(target, args));
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const onRedis = guardOn(createRedisStore({ client: counted, prefix: 'bench:' }));
  await rate(onRedis, 1);
  for (const inFlight of [1, 32]) {
    evals = 0;
    const result = await rate(onRedis, inFlight);
    rows.push([`redis, ${inFlight} in flight`, result, evals / result.done]);
  }
  await redis.quit();
} finally {
  server.kill('SIGTERM');
}

console.log(`Node ${process.version}, ${DURATION_MS} ms per row`);
console.log('| store | decisions/s | decisions | allowed | Redis round trips per decision |');
console.log('|---|---|---|---|---|');
for (const [name, r, trips] of rows) console.log(`| ${name} | ${r.perSecond.toLocaleString('en')} | ${r.done} | ${r.allowed} | ${trips.toFixed(2)} |`);
if (process.env.BENCH_OUT) {
  mkdirSync(process.env.BENCH_OUT, { recursive: true });
  const saved = rows.map(([name, r, trips]) => ({ name, perSecond: r.perSecond, done: r.done, allowed: r.allowed, roundTrips: trips }));
  const load = [loadBefore, loadavg()[0]].map((n) => n.toFixed(1));
  writeFileSync(join(process.env.BENCH_OUT, 'otp.json'), JSON.stringify({ id: 'otp', title: '@x/otp: guard decisions', ms: DURATION_MS, node: process.version, load, rows: saved }, null, 2));
}

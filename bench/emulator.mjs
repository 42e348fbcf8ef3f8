// Requests per second the emulator verifies and serves over HTTP on 127.0.0.1 (autocannon, 10
// connections, every request freshly signed with its own nonce), against the floor: a trivial
// Hono route served the same way (@hono/node-server) in the same server process. One row sends
// the official Node client's header layout (telesignsdk: Date header), which the emulator must
// serve as fast as its own. Then its start (import + createEmulator) against msw's setupServer.
import { fork, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import autocannon from 'autocannon';
import { Hono } from 'hono';
import { SMS_BODY, SMS_FORM, signedSms } from './fixtures.mjs';
import { compare, concurrently, pairedRows, report, servedUrl, TIMED_END, TIMED_START, timedInFreshProcesses } from './harness.mjs';

if (process.argv[2] === 'serve-one') {
  // One server alone, its URL on stdout (instructions.mjs runs it under valgrind): the emulator, or the trivial route.
  let url;
  if (process.argv[3] === 'emulator') {
    const { startEmulator } = await import('@x/emulator/node');
    url = (await startEmulator({ port: 0, deliveryDelayMs: 1000 })).url;
  } else {
    const { serve } = await import('@hono/node-server');
    const port = await new Promise((resolve) => serve({ fetch: trivialRoute().fetch, port: 0, hostname: '127.0.0.1' }, (info) => resolve(info.port)));
    url = `http://127.0.0.1:${port}`;
  }
  process.on('SIGTERM', () => process.exit(0));
  console.log(`URL ${url}`);
} else if (process.argv[2] === 'server') {
  const { serve } = await import('@hono/node-server');
  const { startEmulator } = await import('@x/emulator/node');
  const emulator = await startEmulator({ port: 0, deliveryDelayMs: 1000 });
  const trivial = serve({ fetch: trivialRoute().fetch, port: 0, hostname: '127.0.0.1' }, (info) => process.send({ emulator: emulator.url, trivial: `http://127.0.0.1:${info.port}` }));
  // The server's own CPU time between 'start' and 'stop' (the load generator shares the machine: its share is not the server's).
  let mark;
  process.on('message', (message) => {
    if (message === 'start') {
      mark = process.cpuUsage();
      process.send({ started: true });
    } else if (message === 'stop') {
      const used = process.cpuUsage(mark);
      process.send({ cpuSeconds: (used.user + used.system) / 1e6 });
    }
  });
  process.on('disconnect', async () => {
    trivial.close();
    await emulator.close();
    process.exit(0);
  });
} else {
  const require = createRequire(import.meta.url);
  const RestClient = require('telesignsdk/src/RestClient.js');
  const { DEFAULT_CUSTOMER } = await import('@x/emulator');
  const server = fork(new URL(import.meta.url).pathname, ['server']);
  const urls = await new Promise((resolve) => server.once('message', resolve));
  const ours = signedSms;
  const official = (req) => ({
    ...req, method: 'POST', path: '/v1/messaging', body: SMS_BODY,
    headers: RestClient.generateTeleSignHeaders(DEFAULT_CUSTOMER.customerId, DEFAULT_CUSTOMER.apiKey, 'POST', '/v1/messaging', SMS_FORM, SMS_BODY),
  });
  const ask = (message) => new Promise((resolve) => {
    server.once('message', resolve);
    server.send(message);
  });
  /** Signed POSTs for `ms` against one server: requests per second (or per second of the server's CPU time), all of them 2xx. */
  const load = (url, setupRequest, perCpuSecond = false) => async (ms) => {
    if (perCpuSecond) await ask('start');
    const result = await autocannon({ url, connections: 10, duration: ms / 1000, requests: [{ setupRequest }] });
    const cpu = perCpuSecond ? (await ask('stop')).cpuSeconds : undefined;
    const failed = result.non2xx + result.errors + result.timeouts;
    if (failed) throw new Error(`${url}: ${failed} of ${result.requests.total} requests were not answered 2xx`);
    return result.requests.total / (cpu ?? result.duration);
  };

  await compare({
    id: 'emulator',
    title: 'Emulator: signed SMS POSTs over HTTP, 10 connections',
    unit: 'requests/s',
    ms: 1000,
    rounds: 7,
    variants: [
      { name: 'emulator, POST /v1/messaging signed by @x/auth', measure: load(urls.emulator, ours(urls.emulator)) },
      { name: 'emulator, POST /v1/messaging signed by telesignsdk (official layout)', measure: load(urls.emulator, official) },
      { name: 'trivial Hono route, same server process', role: 'floor', measure: load(urls.trivial, ours(urls.trivial)) },
    ],
    notes: ['The load generator signs every request (fresh nonce) in the benchmark process; the servers run in one child process.'],
  });
  // The same load, counted per second of the server process's CPU time: what serving costs, without
  // the load generator's share of a busy machine (the throughput above is often bound by it).
  await compare({
    id: 'emulator-cpu',
    title: 'Emulator: signed SMS POSTs over HTTP per second of server CPU time, 10 connections',
    unit: 'requests/CPU-s',
    ms: 1000,
    rounds: 7,
    variants: [
      { name: 'emulator, POST /v1/messaging signed by @x/auth', measure: load(urls.emulator, ours(urls.emulator), true) },
      { name: 'trivial Hono route, same server process', role: 'floor', measure: load(urls.trivial, ours(urls.trivial), true) },
    ],
    notes: ['Requests answered divided by the CPU time (user + system) the server process used meanwhile.'],
  });
  server.disconnect();
  await servedTogether();

  // The transaction store at its cap: every new transaction pushes the oldest out. In-process
  // (emulator.fetch), one request at a time, so the store's cost is not hidden behind the network.
  const { createEmulator } = await import('@x/emulator');
  const CAP = 20_000;
  const inProcess = (emulator) => () => {
    const { headers, body } = signedSms('http://emulator.test')({});
    return emulator.fetch('http://emulator.test/v1/messaging', { method: 'POST', headers, body }).then((r) => {
      if (r.status !== 200) throw new Error(`in-process POST answered ${r.status}`);
      return r.arrayBuffer();
    });
  };
  const below = createEmulator({ maxTransactions: 10_000_000, logger: { error: console.error, warn: () => undefined } });
  const atCap = createEmulator({ maxTransactions: CAP, logger: { error: console.error, warn: () => undefined } });
  const fill = inProcess(atCap);
  for (let i = 0; i < CAP; i++) await fill();
  await compare({
    id: 'emulator-store',
    title: `Emulator: in-process signed SMS POSTs, transaction store below its cap and full (maxTransactions ${CAP.toLocaleString('en-US')})`,
    unit: 'requests/s',
    ms: 1000,
    rounds: 5,
    variants: [
      { name: `store full (${CAP.toLocaleString('en-US')} kept; each POST drops the oldest)`, measure: concurrently(inProcess(atCap), 1) },
      { name: 'store below its cap', role: 'below cap', measure: concurrently(inProcess(below), 1) },
    ],
    notes: ['Every request is signed in the same process (fresh nonce): the ratio, not the rate, is the store\'s cost. Constant-time eviction keeps it near 1.'],
  });
  if (atCap.transactions.size !== CAP) throw new Error(`the full store kept ${atCap.transactions.size} transactions, not ${CAP}`);
  below.close();
  atCap.close();
  startTimes();
}

/**
 * The emulator's start against msw's, each in a fresh process from this folder (the built
 * packages): import + createEmulator(), against import of msw and msw/node + setupServer() with
 * one handler + listen(). Both are then ready to answer a test's requests.
 */
function startTimes() {
  const rounds = Math.max(3, Number(process.env.BENCH_START_ROUNDS ?? 15));
  const variants = [
    { name: '@x/emulator: import + createEmulator()', code: `${TIMED_START} const { createEmulator } = await import('@x/emulator'); const e = createEmulator(); ${TIMED_END} e.close();` },
    {
      name: 'msw: import + setupServer(one handler) + listen()',
      role: 'msw',
      code: `${TIMED_START} const { http, HttpResponse } = await import('msw'); const { setupServer } = await import('msw/node'); const s = setupServer(http.post('https://rest-api.telesign.com/v1/messaging', () => HttpResponse.json({}))); s.listen(); ${TIMED_END} s.close();`,
    },
  ];
  const cwd = new URL('.', import.meta.url).pathname;
  const { cpus: times } = timedInFreshProcesses(variants, rounds, (v) => spawnSync(process.execPath, ['--input-type=module', '-e', v.code], { cwd, encoding: 'utf8' }));
  report({
    id: 'emulator-start',
    title: "Emulator start against msw's setupServer, CPU time in a fresh process",
    unit: 'CPU ms',
    rounds,
    processes: true,
    ms: 0,
    warmupMs: 0,
    notes: ['CPU milliseconds (user + system) inside a fresh process, from before the first import to the emulator created (or msw listening). Lower is faster; the ratio is against msw in the same round, below 1.00x is faster.'],
    references: [{ name: variants[1].name, role: 'msw' }],
    rows: pairedRows(variants, times, ['msw']),
  });
}

/**
 * The two servers at once, each in its own process, both on the same core, the load generator on
 * another, both loaded over the same seconds: the CPU time per request of each, in the same
 * conditions whatever else the machine does meanwhile (a run of one build against itself reads
 * within 3%; taking turns, as above, runs of the same build differ by more than 10%). Linux:
 * /proc for the CPU time, taskset for the cores (unpinned without it).
 */
async function servedTogether() {
  const ROUNDS = Math.max(3, Number(process.env.BENCH_ROUNDS ?? 7));
  const WARM_S = 3;
  const COUNT_S = 6;
  const pin = availableParallelism() >= 2 && spawnSync('taskset', ['--version']).status === 0;
  const cpuTicks = (pid) => {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(fields[11]) + Number(fields[12]); // utime + stime, in clock ticks (100 per second)
  };
  if (pin) spawnSync('taskset', ['-p', '-c', '0', String(process.pid)]);
  const variants = [{ name: 'emulator, POST /v1/messaging signed by @x/auth', which: 'emulator' }, { name: 'trivial Hono route, its own process on the same core', which: 'trivial', role: 'floor' }];
  const rates = variants.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    const servers = await Promise.all(variants.map(async ({ which }) => {
      const command = [process.execPath, new URL(import.meta.url).pathname, 'serve-one', which];
      const child = pin ? spawn('taskset', ['-c', '1', ...command], { stdio: ['ignore', 'pipe', 'inherit'] }) : spawn(command[0], command.slice(1), { stdio: ['ignore', 'pipe', 'inherit'] });
      const exited = new Promise((resolve) => child.once('exit', resolve));
      return { child, exited, url: await servedUrl(child, exited, () => `${which} server exited before serving`) };
    }));
    const loadAll = (seconds) => Promise.all(servers.map(async ({ url }) => {
      const result = await autocannon({ url, connections: 5, duration: seconds, requests: [{ setupRequest: signedSms(url) }] });
      const failed = result.non2xx + result.errors + result.timeouts;
      if (failed) throw new Error(`${url}: ${failed} of ${result.requests.total} requests were not answered 2xx`);
      return result.requests.total;
    }));
    await loadAll(WARM_S);
    const before = servers.map(({ child }) => cpuTicks(child.pid));
    const answered = await loadAll(COUNT_S);
    servers.forEach(({ child }, i) => rates[i].push(answered[i] / ((cpuTicks(child.pid) - before[i]) / 100)));
    for (const { child, exited } of servers) {
      child.kill('SIGTERM');
      await exited;
    }
  }
  if (pin) spawnSync('taskset', ['-p', '-c', `0-${availableParallelism() - 1}`, String(process.pid)]);
  report({
    id: 'emulator-together',
    title: 'Emulator: signed SMS POSTs per second of server CPU time, both servers served at once on one core',
    unit: 'requests/CPU-s',
    ms: COUNT_S * 1000,
    rounds: ROUNDS,
    warmupMs: WARM_S * 1000,
    together: true,
    notes: [`Each round starts both servers afresh, each in its own process${pin ? ' pinned to the same core (the load generator on another)' : ''}, loads both over the same ${COUNT_S} s (5 connections each) after ${WARM_S} s uncounted, and divides the requests each answered by the CPU time (user + system) its process used.`],
    references: [{ name: variants[1].name, role: 'floor' }],
    rows: pairedRows(variants, rates),
  });
}

/** The floor: a trivial Hono route that reads the body and answers what the emulator answers. */
function trivialRoute() {
  const app = new Hono();
  app.post('/v1/messaging', async (c) => {
    await c.req.text();
    return c.json({ reference_id: '0123456789ABCDEF0123456789ABCDEF', status: { code: 290, description: 'Message in progress' } });
  });
  return app;
}

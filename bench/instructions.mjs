// What a request costs a server (or a send costs the client) in CPU instructions, counted by
// valgrind (callgrind), not timed.
// On this shared 2-core machine, timings of the same server swing 10-20% from round to round,
// which drowns a 5% goal; an instruction count of the same server usually repeats to within a few percent
// (Node run with --single-threaded, so that no concurrent GC or compiler thread lands in the count
// at a different moment each run; warmed up with 20000 requests first, since code still being
// optimised costs more). Each variant is counted twice and paired with the floor's count of the
// same repetition; the table gives the median and range, as the timed tables do. So the client,
// adapter and emulator goals are also read here, as instructions per request against the same
// references (the official client and bare node:http, the framework without the plugin, a
// trivial Hono route).
//
// Each server runs alone under `valgrind --tool=callgrind --instr-atstart=no` (all its threads:
// GC and JIT count), is warmed up uncounted, then counted over a fixed number of requests
// (instrumentation switched on and off with callgrind_control around them). Instructions are not
// time (cache misses and native code differ), so these rows complement the timed ones.
// Caveat: counts do have outliers. On 2026-11-23 one of two counts of the Fastify route with
// mac: nodeMac came out at the bare route's (165,087 against 205,273): switching counting on with
// callgrind_control is asynchronous and can land late. Each variant is counted twice for that
// reason; read a wide range as such an outlier, not as a measurement.
// Without valgrind on the machine, the benchmark says so and writes nothing. Slow (each server runs
// under valgrind: about 10 minutes on 2 cores), so `npm run bench` leaves it out unless asked:
// `npm run bench -- all`, or `node bench/instructions.mjs` alone.
//   BENCH_CALLGRIND_WARMUP (default 20000 requests), BENCH_CALLGRIND_REQUESTS (default 20000),
//   BENCH_CALLGRIND_REPEAT (default 2), BENCH_CALLGRIND_NODE_FLAGS (default --single-threaded),
//   BENCH_CALLGRIND_ONLY (default client,fastify,emulator,sign; express on request),
//   BENCH_CALLGRIND_MODES (the adapters' servers, default all: verify,pure,stub,hand,plain).
import { execFile, spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { callback, callbackSignature, signedSms } from './fixtures.mjs';
import { pairedRows, report, servedUrl } from './harness.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const WARMUP = Number(process.env.BENCH_CALLGRIND_WARMUP || 20000);
// 20,000 counted requests: over 4,000, whether a GC landed in the window moved a count by up to 10%
// (the same server counted 176k and 195k); over 20,000 two counts agree within about 1%.
const REQUESTS = Number(process.env.BENCH_CALLGRIND_REQUESTS || 20000);
const REPEAT = Number(process.env.BENCH_CALLGRIND_REPEAT || 2);
// Express is left out unless asked: its counts swung 745,000-850,000 per request between two runs of
// the same server (a request costs ~900,000 instructions; whether a full GC lands in the counted
// window decides), wider than what it would measure.
const ONLY = (process.env.BENCH_CALLGRIND_ONLY || 'client,fastify,emulator,sign').split(',');
// The adapters' servers to count (verify, pure, stub, hand, plain), all by default.
const MODES = process.env.BENCH_CALLGRIND_MODES?.split(',');
const NODE_FLAGS = (process.env.BENCH_CALLGRIND_NODE_FLAGS ?? '--single-threaded').split(' ').filter(Boolean);

if (spawnSync('valgrind', ['--version']).status !== 0) {
  console.log('valgrind is not installed (apt-get install valgrind): instruction counts skipped.');
  process.exit(0);
}

/** The first sentence of every table's notes: what was counted, over how many, with which Node flags. */
const countedOver = (what, where = '') => `Instructions counted by valgrind (callgrind)${where} over ${REQUESTS} ${what} after ${WARMUP} uncounted ones, Node run with ${NODE_FLAGS.join(' ') || 'no flags'}`;

const callgrind = (pid, flag) => new Promise((resolve, reject) => execFile('callgrind_control', ['-i', flag, String(pid)], (error) => (error ? reject(error) : resolve())));

/**
 * Instructions per request of one process under valgrind: a server (a bench script in a serve mode
 * that prints `URL <url>`) loaded with `request`, or, without `request`, a client that warms up,
 * switches counting on and off itself around REQUESTS requests, and exits.
 */
async function count(args, request) {
  const env = { ...process.env, BENCH_CALLGRIND_WARMUP: String(WARMUP), BENCH_CALLGRIND_REQUESTS: String(REQUESTS) };
  const child = spawn('valgrind', ['--tool=callgrind', '--instr-atstart=no', '--callgrind-out-file=/dev/null', process.execPath, ...NODE_FLAGS, ...args], { cwd: here, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stderr.on('data', (chunk) => (log += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  if (!request) {
    const code = await exited;
    if (code !== 0) throw new Error(`${args.join(' ')} exited with ${code}:\n${log}`);
    return collected(args, log);
  }
  const url = await servedUrl(child, exited, () => `${args.join(' ')} exited before serving:\n${log}`);
  const load = async (amount) => {
    // Under valgrind a request can take seconds when the machine is busy: a generous timeout, counted all the same.
    const result = await autocannon({ url, connections: 10, amount, timeout: 60, ...request(url) });
    const failed = result.non2xx + result.errors + result.timeouts;
    if (failed) throw new Error(`${args.join(' ')}: ${failed} of ${result.requests.total} requests were not answered 2xx`);
  };
  try {
    await load(WARMUP);
    await callgrind(child.pid, 'on');
    await load(REQUESTS);
    await callgrind(child.pid, 'off');
  } finally {
    // A failed load must not leave the server running under valgrind.
    child.kill('SIGTERM');
    await exited;
  }
  return collected(args, log);
}

/** The instructions per request valgrind reports in its log. */
function collected(args, log) {
  const found = /Collected : (\d+)/.exec(log);
  if (!found) throw new Error(`${args.join(' ')}: no instruction count from valgrind:\n${log}`);
  return Number(found[1]) / REQUESTS;
}

/**
 * Counts every variant REPEAT times (two servers at a time: 2 cores), each repetition paired with
 * the floor's of the same repetition, and reports the comparison as harness.compare does.
 */
async function comparison({ id, title, variants, notes, roles = ['floor'], per = 'request' }) {
  if (!ONLY.includes(id.replace('instructions-', ''))) return;
  const counts = variants.map(() => []);
  for (let rep = 0; rep < REPEAT; rep++) {
    for (let i = 0; i < variants.length; i += 2) {
      await Promise.all(variants.slice(i, i + 2).map(async (v, k) => counts[i + k].push(await count(v.args, v.request))));
    }
  }
  // Rates (requests per million instructions), so that ratios read as the timed tables' do: 0.95x = 5% more instructions.
  const noted = variants.map((v, i) => ({ ...v, note: `${counts[i].map((c) => Math.round(c).toLocaleString('en-US')).join(' and ')} instructions per ${per}` }));
  const rows = pairedRows(noted, counts.map((c) => c.map((n) => 1e6 / n)), roles);
  const references = roles.map((role) => ({ role, name: variants.find((v) => v.role === role).name }));
  report({ id, title, unit: `${per}s per million instructions`, ms: 0, rounds: REPEAT, warmupMs: 0, counted: REQUESTS, warmup: WARMUP, references, rows, notes });
  for (const row of rows) console.log(`  ${row.name}: ${row.note}`);
}

// Adapters: the same signed callback to each server.
const post = () => ({ method: 'POST', body: callback.body, headers: callback.headers });
for (const [framework, plugin] of [['express', '@x/express verifyCallbacks'], ['fastify', '@x/fastify xVerification']]) {
  const serve = (mode) => ['adapters.mjs', 'serve', framework, mode, callbackSignature];
  await comparison({
    id: `instructions-${framework}`,
    title: `${framework === 'express' ? 'Express 5' : 'Fastify 5'}: callback route, instructions per request (valgrind)`,
    variants: [
      { name: `${plugin} (signature verified, default: nodeMac)`, args: serve('verify'), request: post },
      { name: `${plugin} with mac: prepareMac (pure prepared states)`, args: serve('pure'), request: post },
      { name: `${plugin}, HMAC stubbed (the plugin's own cost)`, args: serve('stub'), request: post },
      { name: `${framework} route verifying by hand (node:crypto createHmac, raw body, JSON.parse)`, role: 'by hand', args: serve('hand'), request: post },
      { name: `${framework} without the plugin (JSON parser only)`, role: 'floor', args: serve('plain'), request: post },
    ].filter((v) => !MODES || MODES.includes(v.args[3])),
    roles: ['floor', 'by hand'].filter((role) => !MODES || MODES.includes(role === 'floor' ? 'plain' : 'hand')),
    notes: [`${countedOver('requests')}; one server at a time per core. The official Node client (telesignsdk) has no callback verification, so there is no official row.`],
  });
}

// Emulator: every request freshly signed (its own nonce), as in emulator.mjs.
const signed = (url) => ({ requests: [{ setupRequest: signedSms(url) }] });
await comparison({
  id: 'instructions-emulator',
  title: 'Emulator: signed SMS POSTs, instructions per request (valgrind)',
  variants: [
    { name: 'emulator, POST /v1/messaging signed by @x/auth', args: ['emulator.mjs', 'serve-one', 'emulator'], request: signed },
    { name: 'trivial Hono route (@hono/node-server)', role: 'floor', args: ['emulator.mjs', 'serve-one', 'trivial'], request: signed },
  ],
  notes: [`${countedOver('requests')}. The load generator signs every request (fresh nonce).`],
});

// Signing: a process signs the same request over and over (instructions per signature), with
// Node's own conditions, so `native` is the default signer on Node; the floor is node:crypto's HMAC
// over the same string with the date formatted once a second and a fresh randomUUID nonce.
/** The arguments of a bench script that counts itself (`<script> count <variant>`, harness.mjs countSelf). */
const selfCounted = (script) => (variant) => [script, 'count', variant];
const signer = selfCounted('sign.mjs');
await comparison({
  id: 'instructions-sign',
  title: 'Signing one SMS request, instructions per signature (valgrind)',
  variants: [
    { name: '@x/auth createSigner().sign on Node (node:crypto HMAC and nonce)', args: signer('native') },
    { name: 'telesignsdk generateTeleSignHeaders', role: 'official', args: signer('official') },
    { name: 'node:crypto HMAC, same string, date cached', role: 'floor', args: signer('floor') },
  ],
  roles: ['official', 'floor'],
  per: 'signature',
  notes: [`${countedOver('signatures')}; one process per variant. Same string to sign for every variant (Date header, fresh nonce).`],
});

// Client: the counted process is the client (its server runs unmeasured in a child process), 32
// sends in flight, as client.mjs times them. The count includes everything the process does per
// send: signing, building, the HTTP exchange, parsing the answer, and the GC of what it allocated.
const sender = selfCounted('client.mjs');
await comparison({
  id: 'instructions-client',
  title: 'Client: SMS POST, 32 in flight, instructions per send in the client process (valgrind)',
  variants: [
    { name: '@x/client, default options', args: sender('default') },
    { name: 'telesignsdk sms.message', role: 'official', args: sender('official') },
    { name: 'node:http keep-alive, unsigned', role: 'node:http', args: sender('http') },
  ],
  roles: ['official', 'node:http'],
  notes: [`${countedOver('sends', " in the client's process")}; the server (a fixed JSON answer) runs in its own process, not counted. The official client (node-fetch) opens a new connection per request; the others keep connections alive.`],
});

// Requests per second of a callback route with signature verification (the @x/express and
// @x/fastify plugins) against the floor: the same framework and route without the plugin
// (a JSON body parser only: it reads and parses the same body). autocannon, 10 connections, the
// same signed callback body, 15 rounds (medians settle on a noisy 2-core machine); each server
// runs in its own child process, all started up front,
// warmed up, and measured interleaved. Besides req/s (wall clock, noisy on a shared machine), each
// round also reads the server process's CPU time: requests per CPU-second of the server is what
// the route costs, whatever else runs on the machine (paired per round, like every ratio).
// A third row stubs the HMAC (a key cache whose MAC returns the known signature): the plugin's own
// cost, so that the table says how much of the cost is the HMAC itself (the physical part) and
// how much is the plugin's reading, parsing and wiring. A fourth passes mac: prepareMac (@x/auth's
// pure HMAC with prepared keyed states): the check of the adapters' HMAC default (nodeMac),
// paired round by round.
// The official Node client (telesignsdk) has no callback verification, so there is no official row.
import { fork } from 'node:child_process';
import autocannon from 'autocannon';
import { DEFAULT_CUSTOMER } from '@x/emulator';
import { callback, callbackSignature } from './fixtures.mjs';
import { compare, pairedRows, report } from './harness.mjs';

if (process.argv[2] === 'serve') {
  const [framework, mode, signature] = [process.argv[3], process.argv[4], process.argv[5]];
  const verify = mode !== 'plain' && mode !== 'hand';
  const { createKeyCache } = await import('@x/auth');
  const options = { customerId: DEFAULT_CUSTOMER.customerId, apiKey: DEFAULT_CUSTOMER.apiKey };
  if (mode === 'stub') options.keyCache = createKeyCache({ mac: () => () => signature });
  if (mode === 'pure') options.mac = (await import('@x/auth')).prepareMac; // pure prepared states instead of the default nodeMac
  // The floor the adapters' goal is read against: the same route verifying by hand with node:crypto
  // (the raw bytes, createHmac over them, a constant-time compare, then JSON.parse).
  const { createHmac, timingSafeEqual } = await import('node:crypto');
  const key = Buffer.from(options.apiKey, 'base64');
  const handVerified = (raw, authorization) => {
    const expected = Buffer.from(`TSA ${options.customerId}:${createHmac('sha256', key).update(raw).digest('base64')}`);
    const given = Buffer.from(String(authorization ?? ''));
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
  let url;
  if (framework === 'express') {
    const { default: express } = await import('express');
    const { verifyCallbacks } = await import('@x/express');
    const app = express();
    const handler = (req, res) => res.json({ ok: true, id: (req.callback ?? req.body).reference_id });
    if (mode === 'hand') {
      app.post('/cb', express.raw({ type: '*/*' }), (req, res, next) => {
        if (!handVerified(req.body, req.headers.authorization)) return void res.status(401).json({ error: 'signature_mismatch' });
        req.body = JSON.parse(req.body.toString('utf8'));
        next();
      }, handler);
    } else if (verify) app.post('/cb', verifyCallbacks(options), handler);
    else app.post('/cb', express.json(), handler);
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${server.address().port}/cb`;
  } else {
    const { default: Fastify } = await import('fastify');
    const { xVerification } = await import('@x/fastify');
    const app = Fastify();
    if (mode === 'hand') {
      app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, raw, done) => {
        if (!handVerified(raw, request.headers.authorization)) return done(Object.assign(new Error('signature_mismatch'), { statusCode: 401 }));
        done(null, JSON.parse(raw.toString('utf8')));
      });
      app.post('/cb', async (request) => ({ ok: true, id: request.body.reference_id }));
    } else {
      if (verify) await app.register(xVerification, { callbacks: options });
      app.post('/cb', verify ? { config: { xCallback: true } } : {}, async (request) => ({ ok: true, id: (request.callback ?? request.body).reference_id }));
    }
    url = `${await app.listen({ port: 0, host: '127.0.0.1' })}/cb`;
  }
  // Forked by this benchmark (IPC), or spawned by instructions.mjs under valgrind (the URL on stdout).
  if (process.send) {
    process.on('disconnect', () => process.exit(0));
    process.on('message', (m) => m === 'cpu' && process.send({ cpu: process.cpuUsage() }));
    process.send(url);
  } else {
    process.on('SIGTERM', () => process.exit(0));
    console.log(`URL ${url}`);
  }
} else {
  const { body, headers } = callback;
  const servers = [];
  const start = async (framework, mode) => {
    const child = fork(new URL(import.meta.url).pathname, ['serve', framework, mode, callbackSignature]);
    servers.push(child);
    const url = await new Promise((resolve) => child.once('message', resolve));
    return { url, child, cpuRates: [] };
  };
  const cpuOf = (child) => new Promise((resolve) => {
    child.once('message', (m) => resolve(m.cpu));
    child.send('cpu');
  });
  // req/s by the wall clock (what compare() gets); requests per server CPU-second kept aside.
  const load = (server) => async (ms) => {
    const before = await cpuOf(server.child);
    const result = await autocannon({ url: server.url, method: 'POST', body, headers, connections: 10, duration: ms / 1000 });
    const after = await cpuOf(server.child);
    const failed = result.non2xx + result.errors + result.timeouts;
    if (failed) throw new Error(`${server.url}: ${failed} of ${result.requests.total} requests were not answered 2xx`);
    const cpuSeconds = (after.user - before.user + after.system - before.system) / 1e6;
    server.cpuRates.push(result.requests.total / cpuSeconds);
    return result.requests.total / result.duration;
  };
  /** The same comparison by server CPU time: measurements after the warm-up, paired by round. */
  const cpuTable = (wall, variants) =>
    report({
      ...wall,
      id: `${wall.id}-cpu`,
      title: `${wall.title}, by server CPU time`,
      unit: 'requests/CPU-s',
      rows: pairedRows(variants, variants.map((v) => v.server.cpuRates.slice(1))),
    });

  for (const [framework, plugin] of [['express', '@x/express verifyCallbacks'], ['fastify', '@x/fastify xVerification']]) {
    const plain = await start(framework, 'plain');
    const verified = await start(framework, 'verify');
    const stubbed = await start(framework, 'stub');
    const pure = await start(framework, 'pure');
    const variants = [
      { name: `${plugin} (signature verified)`, server: verified, measure: load(verified) },
      { name: `${plugin} with mac: prepareMac (pure prepared states instead of the default nodeMac)`, server: pure, measure: load(pure) },
      { name: `${plugin}, HMAC stubbed (the plugin's own cost)`, server: stubbed, measure: load(stubbed) },
      { name: `${framework} without the plugin (JSON parser only)`, role: 'floor', server: plain, measure: load(plain) },
    ];
    const wall = await compare({
      id: `adapters-${framework}`,
      title: `${framework === 'express' ? 'Express 5' : 'Fastify 5'}: callback route, 10 connections`,
      unit: 'requests/s',
      ms: 1000,
      rounds: 15,
      warmupMs: 2000,
      variants,
      notes: ['The official Node client (telesignsdk) has no callback verification, so there is no official row.'],
    });
    cpuTable(wall, variants);
  }
  for (const child of servers) child.disconnect();
}

// Requests per second of a full SMS send against a trivial server on 127.0.0.1 (its own process,
// keep-alive, a fixed JSON answer), so that what differs is the clients' own cost. At 32 and at 1
// requests in flight: @x/client with its default options (on Node: native HMAC and the node:http
// keep-alive sender, by the `node` export condition), @x/client on the portable path (the global
// fetch, pure HMAC: what Deno, Bun and workers run), @x/client with createNodeFetch + nodeMac,
// the official Node client (telesignsdk), and two floors that send the
// same bytes unsigned (headers signed once up front) and parse the same JSON: bare node:http with a
// keep-alive agent, and undici.request. One more row, Node's global fetch sending the same bytes
// unsigned, shows how much of the default client's cost is fetch itself.
import { fork } from 'node:child_process';
import { Agent, createServer, request as httpRequest } from 'node:http';
import { createRequire } from 'node:module';
import { createSigner } from '@x/auth';
import { nodeMac } from '@x/auth/node';
import { createClient } from '@x/client';
import { createNodeFetch } from '@x/client/node';
import { request as undiciRequest, Agent as UndiciAgent } from 'undici';
import { compare, concurrently, countSelf } from './harness.mjs';

// The pure HMAC (@noble/hashes), what Deno, Bun and workers sign with: on Node @x/auth's `#hashes`
// resolves to node:crypto, so the portable row takes the pure file of the build directly.
const pure = await import(new URL('hashes.js', `file://${createRequire(import.meta.url).resolve('@x/auth')}`).href);
const pureMac = (algorithm, key) => (algorithm === 'HMAC-SHA1' ? pure.hmacSha1 : pure.hmacSha256)(key);

const answer = JSON.stringify({ reference_id: '0123456789ABCDEF0123456789ABCDEF', status: { code: 290, description: 'Message in progress', updated_on: '2026-01-01T00:00:00.000000Z' } });

if (process.argv[2] === 'server') {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(answer));
  });
  server.keepAliveTimeout = 30_000;
  server.listen(0, '127.0.0.1', () => process.send(server.address().port));
  process.on('disconnect', () => process.exit(0));
} else {
  const require = createRequire(import.meta.url);
  const TeleSign = require('telesignsdk');
  const credentials = { customerId: 'FFFFFFFF-EEEE-DDDD-1234-AB1234567890', apiKey: 'ABC12345yusumoN6BYsBVkh+yRJ5czgsnCehZaOYldPJdmFh6NeX8kunZ2zU1YWaUw/0wV6xfw==' };
  const server = fork(new URL(import.meta.url).pathname, ['server']);
  const port = await new Promise((resolve) => server.once('message', resolve));
  const base = `http://127.0.0.1:${port}`;
  const params = { phoneNumber: '15555551234', message: 'Your code is 123456', messageType: 'OTP' };
  const body = 'phone_number=15555551234&message=Your+code+is+123456&message_type=OTP';
  const { headers } = createSigner(credentials).sign({ method: 'POST', url: `${base}/v1/messaging`, contentType: 'application/x-www-form-urlencoded', body });
  const sent = { ...headers, 'content-length': String(Buffer.byteLength(body)) };

  /** One SMS send per variant, with pools sized for `concurrency`; `close` frees the pools. */
  const variantsFor = (concurrency) => {
    const defaults = createClient({ ...credentials, baseUrl: base });
    const fastest = createClient({ ...credentials, baseUrl: base, mac: nodeMac, fetch: createNodeFetch({ maxSockets: concurrency }) });
    const portable = createClient({ ...credentials, baseUrl: base, fetch: globalThis.fetch, mac: pureMac });
    const official = new TeleSign(credentials.customerId, credentials.apiKey, base, 10_000);
    const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
    const dispatcher = new UndiciAgent({ connections: concurrency });
    return {
      default: () => defaults.messaging.send(params),
      fastest: () => fastest.messaging.send(params),
      portable: () => portable.messaging.send(params),
      official: () =>
        new Promise((resolve, reject) => official.sms.message((error, res) => (error ? reject(error) : resolve(res)), params.phoneNumber, params.message, params.messageType)),
      fetch: async () => (await fetch(`${base}/v1/messaging`, { method: 'POST', headers, body })).json(),
      http: () =>
        new Promise((resolve, reject) => {
          const req = httpRequest({ host: '127.0.0.1', port, path: '/v1/messaging', method: 'POST', headers: sent, agent }, (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (chunk) => (text += chunk));
            res.on('end', () => resolve(JSON.parse(text)));
            res.on('error', reject);
          });
          req.on('error', reject);
          req.end(body);
        }),
      undici: async () => (await undiciRequest(`${base}/v1/messaging`, { method: 'POST', headers: sent, body, dispatcher })).body.json(),
      close: async () => {
        agent.destroy();
        await dispatcher.close();
      },
    };
  };

  if (process.argv[2] === 'count') {
    // Run by instructions.mjs under valgrind: one variant, 32 in flight, warmed up uncounted, then
    // counted over a fixed number of sends (this process switches callgrind's counting on and off).
    const send = variantsFor(32)[process.argv[3]];
    const sends = async (n) => {
      let left = n;
      await Promise.all(Array.from({ length: 32 }, async () => {
        while (left-- > 0) await send();
      }));
    };
    await countSelf(sends);
  } else {
    for (const concurrency of [32, 1]) {
      const v = variantsFor(concurrency);
      await compare({
        id: `client-c${concurrency}`,
        title: `Client: SMS POST, ${concurrency} in flight, plain HTTP on 127.0.0.1`,
        unit: 'requests/s',
        ms: 600,
        rounds: 7,
        variants: [
          { name: '@x/client, default options', measure: concurrently(v.default, concurrency) },
          { name: '@x/client, createNodeFetch + nodeMac', measure: concurrently(v.fastest, concurrency) },
          { name: '@x/client, portable path (global fetch, pure HMAC)', measure: concurrently(v.portable, concurrency) },
          { name: 'telesignsdk sms.message', role: 'official', measure: concurrently(v.official, concurrency) },
          { name: 'global fetch, unsigned (what the default client sends with)', measure: concurrently(v.fetch, concurrency) },
          { name: 'node:http keep-alive, unsigned', role: 'node:http', measure: concurrently(v.http, concurrency) },
          { name: 'undici.request, unsigned', role: 'undici', measure: concurrently(v.undici, concurrency) },
        ],
        notes: ['The official client (node-fetch) opens a new connection per request; the others keep connections alive.'],
      });
      await v.close();
    }
  }
  server.disconnect();
  // The official client leaves a 10 s timeout timer per request behind.
  process.exit(0);
}

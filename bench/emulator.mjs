// Requests per second the emulator verifies and serves over HTTP on 127.0.0.1 (autocannon, 10
// connections, every request freshly signed with its own nonce), against the floor: a trivial
// Hono route served the same way (@hono/node-server) in the same server process. One row sends
// the official Node client's header layout (telesignsdk: Date header), which the emulator must
// serve as fast as its own.
import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import autocannon from 'autocannon';
import { createSigner } from '@x/auth';
import { compare } from './harness.mjs';

if (process.argv[2] === 'server') {
  const { Hono } = await import('hono');
  const { serve } = await import('@hono/node-server');
  const { startEmulator } = await import('@x/emulator/node');
  const emulator = await startEmulator({ port: 0, deliveryDelayMs: 1000 });
  const app = new Hono();
  app.post('/v1/messaging', async (c) => {
    await c.req.text();
    return c.json({ reference_id: '0123456789ABCDEF0123456789ABCDEF', status: { code: 290, description: 'Message in progress' } });
  });
  const trivial = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => process.send({ emulator: emulator.url, trivial: `http://127.0.0.1:${info.port}` }));
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
  const signer = createSigner(DEFAULT_CUSTOMER);
  const form = 'application/x-www-form-urlencoded';
  const body = 'phone_number=15555550100&message=Hello&message_type=ARN';

  const ours = (url) => (req) => ({ ...req, method: 'POST', path: '/v1/messaging', body, headers: signer.sign({ method: 'POST', url: `${url}/v1/messaging`, contentType: form, body }).headers });
  const official = (req) => ({
    ...req, method: 'POST', path: '/v1/messaging', body,
    headers: RestClient.generateTeleSignHeaders(DEFAULT_CUSTOMER.customerId, DEFAULT_CUSTOMER.apiKey, 'POST', '/v1/messaging', form, body),
  });
  /** Signed POSTs for `ms` against one server: requests per second, all of them 2xx. */
  const load = (url, setupRequest) => async (ms) => {
    const result = await autocannon({ url, connections: 10, duration: ms / 1000, requests: [{ setupRequest }] });
    const failed = result.non2xx + result.errors + result.timeouts;
    if (failed) throw new Error(`${url}: ${failed} of ${result.requests.total} requests were not answered 2xx`);
    return result.requests.total / result.duration;
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
  server.disconnect();
}

// Requests per second of a callback route with signature verification (the @x/express and
// @x/fastify plugins) against the floor: the same framework and route without the plugin
// (a JSON body parser only). autocannon, 10 connections, the same signed callback body; each
// server runs in its own child process, all started up front and measured interleaved.
// The official Node client (telesignsdk) has no callback verification, so there is no official row.
import { fork } from 'node:child_process';
import autocannon from 'autocannon';
import { DEFAULT_CUSTOMER } from '@x/emulator';
import { createSignedCallback } from '@x/webhooks/testing';
import { compare } from './harness.mjs';

if (process.argv[2] === 'serve') {
  const [framework, verify] = [process.argv[3], process.argv[4] === 'verify'];
  const options = { customerId: DEFAULT_CUSTOMER.customerId, apiKey: DEFAULT_CUSTOMER.apiKey };
  let url;
  if (framework === 'express') {
    const { default: express } = await import('express');
    const { verifyCallbacks } = await import('@x/express');
    const app = express();
    const handler = (req, res) => res.json({ ok: true, id: (req.callback ?? req.body).reference_id });
    if (verify) app.post('/cb', verifyCallbacks(options), handler);
    else app.post('/cb', express.json(), handler);
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${server.address().port}/cb`;
  } else {
    const { default: Fastify } = await import('fastify');
    const { xVerification } = await import('@x/fastify');
    const app = Fastify();
    if (verify) await app.register(xVerification, { callbacks: options });
    app.post('/cb', verify ? { config: { xCallback: true } } : {}, async (request) => ({ ok: true, id: (request.callback ?? request.body).reference_id }));
    url = `${await app.listen({ port: 0, host: '127.0.0.1' })}/cb`;
  }
  process.on('disconnect', () => process.exit(0));
  process.send(url);
} else {
  const payload = { reference_id: 'B56259E45884010488343BAA15FB0002', sub_resource: 'sms', errors: [], status: { code: 200, description: 'Delivered to handset', updated_on: '2016-10-21T14:05:36.181346Z' }, verify: { code_state: 'UNKNOWN', code_entered: null } };
  const { body, headers } = createSignedCallback(payload, DEFAULT_CUSTOMER);
  const servers = [];
  const start = async (framework, mode) => {
    const child = fork(new URL(import.meta.url).pathname, ['serve', framework, mode]);
    servers.push(child);
    return new Promise((resolve) => child.once('message', resolve));
  };
  const load = (url) => async (ms) => {
    const result = await autocannon({ url, method: 'POST', body, headers, connections: 10, duration: ms / 1000 });
    const failed = result.non2xx + result.errors + result.timeouts;
    if (failed) throw new Error(`${url}: ${failed} of ${result.requests.total} requests were not answered 2xx`);
    return result.requests.total / result.duration;
  };

  for (const [framework, plugin] of [['express', '@x/express verifyCallbacks'], ['fastify', '@x/fastify xVerification']]) {
    const plain = await start(framework, 'plain');
    const verified = await start(framework, 'verify');
    await compare({
      id: `adapters-${framework}`,
      title: `${framework === 'express' ? 'Express 5' : 'Fastify 5'}: callback route, 10 connections`,
      unit: 'requests/s',
      ms: 1000,
      rounds: 7,
      variants: [
        { name: `${plugin} (signature verified)`, measure: load(verified) },
        { name: `${framework} without the plugin (JSON parser only)`, role: 'floor', measure: load(plain) },
      ],
      notes: ['The official Node client (telesignsdk) has no callback verification, so there is no official row.'],
    });
  }
  for (const child of servers) child.disconnect();
}

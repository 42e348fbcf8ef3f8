// Requests per second of a callback route with verification vs the same route without it,
// Express and Fastify, same run, autocannon against 127.0.0.1. Servers run in child processes so
// the load generator does not share their event loop.
import { fork } from 'node:child_process';
import autocannon from 'autocannon';
import { DEFAULT_CUSTOMER } from '@x/emulator';
import { createSignedCallback } from '@x/webhooks';

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
    await new Promise((r) => server.once('listening', r));
    url = `http://127.0.0.1:${server.address().port}/cb`;
  } else {
    const { default: Fastify } = await import('fastify');
    const { xVerification } = await import('@x/fastify');
    const app = Fastify();
    await app.register(xVerification, { callbacks: options });
    app.post('/cb', { config: { xCallback: verify } }, async (request) => ({ ok: true, id: (request.callback ?? request.body).reference_id }));
    url = `${await app.listen({ port: 0, host: '127.0.0.1' })}/cb`;
  }
  process.on('SIGINT', () => process.exit(0));
  process.send(url);
} else {
  const payload = { reference_id: 'B56259E45884010488343BAA15FB0002', sub_resource: 'sms', errors: [], status: { code: 200, description: 'Delivered to handset', updated_on: '2016-10-21T14:05:36.181346Z' }, verify: { code_state: 'UNKNOWN', code_entered: null } };
  const { body, headers } = createSignedCallback(payload, DEFAULT_CUSTOMER);
  const seconds = Number(process.env.BENCH_SECONDS ?? 5);
  const rows = [];
  for (const framework of ['express', 'fastify']) {
    for (const mode of ['plain', 'verify']) {
      const child = fork(new URL(import.meta.url).pathname, ['serve', framework, mode]);
      const url = await new Promise((r) => child.once('message', r));
      const result = await autocannon({ url, method: 'POST', body, headers, connections: 10, duration: seconds });
      child.kill();
      rows.push({ framework, mode, rps: result.requests.average, non2xx: result.non2xx + result.errors });
    }
  }
  for (const framework of ['express', 'fastify']) {
    const plain = rows.find((r) => r.framework === framework && r.mode === 'plain');
    const verified = rows.find((r) => r.framework === framework && r.mode === 'verify');
    console.log(`${framework.padEnd(8)} no verification ${Math.round(plain.rps)} req/s, with verification ${Math.round(verified.rps)} req/s: ${(verified.rps / plain.rps).toFixed(3)}x (cost ${((1 - verified.rps / plain.rps) * 100).toFixed(1)}%), not 2xx: ${plain.non2xx}/${verified.non2xx}`);
  }
}

// Requests per second of a full SMS send: @x/client (pure and native HMAC) vs the official Node
// client (telesignsdk) vs bare fetch (unsigned: the physical baseline), in one run, against a
// trivial local server on 127.0.0.1 so that the clients' own cost is what differs. Runs twice:
// plain HTTP, and HTTPS (the only transport the service accepts) with a throwaway certificate
// trusted through NODE_EXTRA_CA_CERTS, where connection reuse decides.

const tls = process.env.BENCH_TLS_DIR;
if (!tls && !process.env.BENCH_CHILD) {
  const dir = mkdtempSync(join(tmpdir(), 'x-bench-tls-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
  for (const env of [{ BENCH_CHILD: '1' }, { BENCH_CHILD: '1', BENCH_TLS_DIR: dir, NODE_EXTRA_CA_CERTS: join(dir, 'cert.pem') }]) {
    const r = spawnSync(process.execPath, [new URL(import.meta.url).pathname], { stdio: 'inherit', env: { ...process.env, ...env } });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
  process.exit(0);
}
import { execFileSync, fork, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeMac } from '@x/auth/node';
import { createClient } from '@x/client';
import { createNodeFetch } from '@x/client/node';

const require = createRequire(import.meta.url);
const TeleSign = require('telesignsdk');
const credentials = { customerId: 'FFFFFFFF-EEEE-DDDD-1234-AB1234567890', apiKey: 'ABC12345yusumoN6BYsBVkh+yRJ5czgsnCehZaOYldPJdmFh6NeX8kunZ2zU1YWaUw/0wV6xfw==' };
const answer = JSON.stringify({ reference_id: '0123456789ABCDEF0123456789ABCDEF', status: { code: 290, description: 'Message in progress', updated_on: '2026-01-01T00:00:00.000000Z' } });

// The server runs in its own process, so the client's process measures the client's cost.
if (process.argv[2] === 'server') {
  const handler = (req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(answer));
  };
  const server = tls
    ? createHttpsServer({ key: readFileSync(join(tls, 'key.pem')), cert: readFileSync(join(tls, 'cert.pem')) }, handler)
    : createHttpServer(handler);
  server.listen(0, '127.0.0.1', () => process.send(server.address().port));
  await new Promise(() => {});
}
const serverProcess = fork(new URL(import.meta.url).pathname, ['server']);
const port = await new Promise((resolve) => serverProcess.once('message', resolve));
const base = `${tls ? 'https' : 'http'}://127.0.0.1:${port}`;
const ms = Number(process.env.BENCH_MS ?? 3000);
const concurrency = 10;

async function measure(name, once) {
  for (let i = 0; i < 200; i++) await once(); // warm-up
  let count = 0;
  const end = performance.now() + ms;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (performance.now() < end) {
      await once();
      count++;
    }
  }));
  return { name, rps: count / (ms / 1000) };
}

const params = { phoneNumber: '15555551234', message: 'Your code is 123456', messageType: 'OTP' };
const pure = createClient({ ...credentials, baseUrl: base, retry: false });
const native = createClient({ ...credentials, baseUrl: base, retry: false, mac: nodeMac });
const fastest = createClient({ ...credentials, baseUrl: base, retry: false, mac: nodeMac, fetch: createNodeFetch() });
const official = new TeleSign(credentials.customerId, credentials.apiKey, base, 10_000);
const body = 'phone_number=15555551234&message=Your+code+is+123456&message_type=OTP';

const rows = [
  await measure('bare fetch (unsigned, baseline)', async () => {
    const r = await fetch(`${base}/v1/messaging`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
    await r.json();
  }),
  await measure('@x/client, nodeMac + createNodeFetch', () => fastest.messaging.send(params)),
  await measure('@x/client, mac: nodeMac', () => native.messaging.send(params)),
  await measure('@x/client, pure HMAC', () => pure.messaging.send(params)),
  await measure('telesignsdk (official, node-fetch)', () => new Promise((resolve, reject) => official.sms.message((err, res) => (err ? reject(err) : resolve(res)), params.phoneNumber, params.message, params.messageType))),
];
serverProcess.kill();
const fetchRps = rows[0].rps;
const officialRps = rows.find((r) => r.name.startsWith('telesignsdk')).rps;
console.log(`\nclient throughput over ${tls ? 'HTTPS' : 'plain HTTP'}, ${concurrency} concurrent, ${ms} ms each, Node ${process.version}`);
for (const r of rows) console.log(`${r.name.padEnd(38)} ${Math.round(r.rps).toString().padStart(6)} req/s  ${(r.rps / officialRps).toFixed(2)}x official  ${(r.rps / fetchRps).toFixed(2)}x bare fetch`);
process.exit(0);

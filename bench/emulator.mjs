// Emulator figures: signed requests per second it verifies and serves over HTTP on 127.0.0.1
// (autocannon, every request freshly signed with its own nonce), and memory after 100k transactions.
// Run: npm run bench   (or: node --expose-gc bench/emulator.mjs)
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import autocannon from 'autocannon';
import { createSigner } from '@x/auth';
import { createEmulator, DEFAULT_CUSTOMER } from '@x/emulator';

const require = createRequire(import.meta.url);
const cli = require.resolve('@x/emulator/package.json').replace(/package\.json$/, 'dist/cli.js');
const child = spawn(process.execPath, [cli, '--port', '0', '--delivery-delay', '1000'], { stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise((resolve, reject) => {
  child.stdout.on('data', (chunk) => {
    const match = /listening on (\S+)/.exec(String(chunk));
    if (match) resolve(match[1]);
  });
  child.once('exit', () => reject(new Error('emulator exited')));
});

const signer = createSigner(DEFAULT_CUSTOMER);
const body = 'phone_number=15555550100&message=Hello&message_type=ARN';
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const run = (title, setup) =>
  new Promise((resolve, reject) => {
    autocannon({ url, connections: 10, duration: seconds, requests: [{ setupRequest: setup }] }, (error, result) => (error ? reject(error) : resolve({ title, result })));
  });
const results = [
  await run('POST /v1/messaging (signed, SHA-256)', (req) => ({
    ...req, method: 'POST', path: '/v1/messaging', body,
    headers: signer.sign({ method: 'POST', url: `${url}/v1/messaging`, contentType: 'application/x-www-form-urlencoded', body }).headers,
  })),
  await run('GET /v1/voice (signed)', (req) => ({ ...req, method: 'GET', path: '/v1/voice', headers: signer.sign({ method: 'GET', url: `${url}/v1/voice` }).headers })),
];
child.kill();
for (const { title, result } of results) {
  const non2xx = result.non2xx + result.errors;
  console.log(`${title.padEnd(40)} ${Math.round(result.requests.average).toString().padStart(7)} req/s  p99 ${result.latency.p99} ms  (${result.requests.total} requests, ${non2xx} not 2xx)`);
}

// Memory after 100k transactions, in-process.
const emulator = createEmulator({ deliveryDelayMs: 1000 });
globalThis.gc?.();
const before = process.memoryUsage().heapUsed;
for (let i = 0; i < 100_000; i++) {
  const b = `phone_number=1555${String(i).padStart(7, '0')}&message=Hello%20number%20${i}&message_type=ARN`;
  const target = 'http://emulator.local/v1/messaging';
  const { headers } = signer.sign({ method: 'POST', url: target, contentType: 'application/x-www-form-urlencoded', body: b });
  const response = await emulator.fetch(target, { method: 'POST', headers, body: b });
  if (response.status !== 200) throw new Error(`transaction ${i}: ${response.status}`);
}
globalThis.gc?.();
const after = process.memoryUsage().heapUsed;
console.log(`memory after 100k transactions: heap +${((after - before) / 1048576).toFixed(1)} MiB (${emulator.transactions.size} transactions kept, outbox ${emulator.outbox.list().length}, gc ${globalThis.gc ? 'forced' : 'not exposed'})`);
emulator.close();

// Memory held by misused event streams (issue: HEAD subscribers that are never released, a reader
// that stops reading). Run with the built package: node --expose-gc bench/control-memory.mjs [dist dir]
// Prints the heap and array-buffer growth, in MB, after N signed requests, against a run with no stream.
/* global URLSearchParams */
import { signRequest } from '@x/auth';
import { request } from 'node:http';
import { connect } from 'node:net';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { used } from './heap.mjs';

const dist = resolve(process.argv[2] ?? new URL('../dist', import.meta.url).pathname);
const { startEmulator, DEFAULT_CUSTOMER } = { ...(await import(pathToFileURL(`${dist}/node.js`).href)), ...(await import(pathToFileURL(`${dist}/index.js`).href)) };

const mb = (bytes) => (bytes / 1048576).toFixed(1);

function send(port, method, path, headers = {}, body) {
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => done(res.statusCode));
    });
    req.on('error', fail);
    req.end(body);
  });
}

async function sms(url, n) {
  for (let i = 0; i < n; i++) {
    const body = new URLSearchParams({ phone_number: '15555550100', message: `message ${i} `.padEnd(160, 'x'), message_type: 'ARN' }).toString();
    const target = `${url}/v1/messaging`;
    const { headers } = signRequest({ method: 'POST', url: target, contentType: 'application/x-www-form-urlencoded', body }, DEFAULT_CUSTOMER);
    await send(new URL(url).port, 'POST', '/v1/messaging', headers, body);
  }
}

async function scenario(name, n, misuse) {
  const server = await startEmulator({ deliveryDelayMs: 0, maxTransactions: 100_000, logger: { error() {}, warn() {} } });
  await sms(server.url, 50); // warm up
  const before = await used();
  const undo = await misuse(server);
  await sms(server.url, n);
  const after = await used();
  undo?.();
  await server.close();
  return { name, n, grewMB: mb(after - before) };
}

/** A client that opens the event stream, reads its first bytes, then stops reading. */
async function stalledReader(server) {
  const socket = connect(server.port, '127.0.0.1');
  await new Promise((r) => socket.once('connect', r));
  socket.write(`GET /_emulator/events HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n\r\n`);
  await new Promise((r) => socket.once('data', r));
  socket.pause();
  return () => socket.destroy();
}

async function heads(server) {
  for (let i = 0; i < 5; i++) await send(server.port, 'HEAD', '/_emulator/events');
}

const none = async () => undefined;
const rows = [
  await scenario('no stream (baseline), 800 requests', 800, none),
  await scenario('5 x HEAD /_emulator/events, then 800 requests', 800, heads),
  await scenario('no stream (baseline), 3500 requests', 3500, none),
  await scenario('1 reader that stops reading, then 3500 requests', 3500, stalledReader),
  await scenario('no stream (baseline), 10000 requests', 10_000, none),
  await scenario('1 reader that stops reading, then 10000 requests', 10_000, stalledReader),
];
for (const row of rows) console.log(`${row.name.padEnd(52)} +${row.grewMB} MB`);

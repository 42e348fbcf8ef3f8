// Memory per kept transaction: N signed SMS sent in process (emulator.fetch), each kept with its
// outbox message, its journal entry and its status history; then gc, and the growth of the heap
// (plus array buffers) divided by N, against the same emulator before the requests.
// Run with the built package: node --expose-gc bench/transaction-memory.mjs [N] [dist dir]
import { createSigner } from '@x/auth';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { used } from './heap.mjs';

const n = Number(process.argv[2] ?? 20_000);
const dist = resolve(process.argv[3] ?? new URL('../dist', import.meta.url).pathname);
const { createEmulator, DEFAULT_CUSTOMER } = await import(pathToFileURL(`${dist}/index.js`).href);


const FORM = 'application/x-www-form-urlencoded';
const URL_SMS = 'http://127.0.0.1/v1/messaging';
const signer = createSigner(DEFAULT_CUSTOMER);
// Deliveries done at once (no timers pending): what stays is what the emulator keeps.
const emulator = createEmulator({ deliveryDelayMs: 0, maxTransactions: Math.max(n, 1000) });
// Warm up every path once (code, caches) before the baseline.
async function sms(i) {
  const body = `phone_number=1555${String(i % 10_000_000).padStart(7, '0')}&message=Your%20code%20is%20${String(i % 1_000_000).padStart(6, '0')}&message_type=OTP`;
  const { headers } = signer.sign({ method: 'POST', url: URL_SMS, contentType: FORM, body });
  const response = await emulator.fetch(new Request(URL_SMS, { method: 'POST', headers, body }));
  if (response.status !== 200) throw new Error(`POST /v1/messaging answered ${response.status}: ${await response.text()}`);
  await response.arrayBuffer();
}
for (let i = 0; i < 200; i++) await sms(i);
emulator.reset();
await emulator.idle?.();
const before = await used();
for (let i = 0; i < n; i++) await sms(i);
await emulator.idle?.();
const after = await used();
const kept = emulator.transactions?.list?.().length;
console.log(JSON.stringify({ transactions: n, kept, bytesPerTransaction: Math.round((after - before) / n) }));
emulator.close();

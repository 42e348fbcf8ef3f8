// `npm start`: the whole flow on 127.0.0.1 against the emulator (no account) and a local
// redis-server (BullMQ's, and the idempotency keys'). It starts Redis, the receiver and the
// emulator, runs the sender as its own process, waits until every sent message's delivery report
// went through the queue, then runs the sender again with the same run id (a restarted worker):
// nothing is sent twice. Exit 0, or 1 with the reason (after 90 s at the latest).
import { spawn, execFile } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { DEFAULT_CUSTOMER } from '@x/emulator';
import { startEmulator } from '@x/emulator/node';
import { startReceiver } from './receiver.mjs';
import { BUDGET, RATE, USERS } from './sender.mjs';

const children = [];
const fail = (reason) => {
  console.error(`FAILED: ${reason}`);
  for (const child of children) child.kill('SIGTERM');
  process.exit(1);
};
setTimeout(() => fail('not finished within 90 s'), 90_000).unref();

// 1. A redis-server of our own on a free port (stopped at the end).
const freePort = async () => {
  const { createServer } = await import('node:net');
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address();
  probe.close();
  return port;
};
const redisPort = await freePort();
const redis = spawn('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
children.push(redis);
redis.once('error', (error) => fail(`redis-server could not start (${error.message}): apt-get install redis-server`));
const pong = () => new Promise((resolve) => {
  const socket = connect(redisPort, '127.0.0.1');
  socket.once('error', () => resolve(false));
  socket.once('connect', () => socket.write('PING\r\n'));
  socket.once('data', (data) => (socket.destroy(), resolve(String(data).startsWith('+PONG'))));
});
for (let i = 0; !(await pong()); i++) {
  if (i === 100) fail('redis-server did not answer PING within 5 s');
  await new Promise((r) => setTimeout(r, 50));
}
const connection = { host: '127.0.0.1', port: redisPort, maxRetriesPerRequest: null };

// 2. The receiver: callbacks verified, handed to BullMQ, processed by its worker.
const reports = new Map(); // reference id -> delivered | failed
const receiver = startReceiver({ credentials: DEFAULT_CUSTOMER, connection, onReport: (referenceId, outcome) => reports.set(referenceId, outcome) });
receiver.server.listen(0, '127.0.0.1');
await once(receiver.server, 'listening');
const receiverUrl = `http://127.0.0.1:${receiver.server.address().port}`;

// 3. The emulator; its account sends delivery reports to the receiver.
const emulator = await startEmulator({ deliveryDelayMs: 50, customers: [{ ...DEFAULT_CUSTOMER, callbackUrl: `${receiverUrl}/callbacks` }] });
console.log(`Receiver on ${receiverUrl}, emulator on ${emulator.url}, redis on ${redisPort}`);

// 4. The sender, as its own process.
const sender = fileURLToPath(new URL('./sender.mjs', import.meta.url));
// Two sender processes sharing one rate and one budget on Redis.
const PROCESSES = 2;
const runSenders = async (runId) => {
  const runs = Array.from({ length: PROCESSES }, (_, part) =>
    promisify(execFile)(process.execPath, [sender, emulator.url, runId, `redis://127.0.0.1:${redisPort}`, String(part), String(PROCESSES)], { timeout: 60_000 }),
  );
  const summaries = (await Promise.all(runs)).map(({ stdout }) => JSON.parse(stdout));
  const total = { sent: 0, refused: 0, unknown: 0, reasons: {}, referenceIds: [] };
  for (const s of summaries) {
    for (const k of ['sent', 'refused', 'unknown']) total[k] += s[k];
    if (s.unknownErrors) (total.unknownErrors ??= []).push(...s.unknownErrors);
    for (const [reason, n] of Object.entries(s.reasons)) total.reasons[reason] = (total.reasons[reason] ?? 0) + n;
    total.referenceIds.push(...s.referenceIds);
  }
  return total;
};

try {
  const runId = 'shipping-notices-1';
  const first = await runSenders(runId);
  console.log(`1. ${USERS} personalised SMS from ${PROCESSES} processes at ${RATE.perSecond}/s under a budget of ${BUDGET.max} parts: ${first.sent} sent, ${first.refused} refused (${JSON.stringify(first.reasons)}), ${first.unknown} unknown${first.unknownErrors ? ` ${first.unknownErrors}` : ""}`);
  if (first.sent !== BUDGET.max || first.refused !== USERS - BUDGET.max || first.reasons.spend_cap !== USERS - BUDGET.max) fail(`expected ${BUDGET.max} sent and ${USERS - BUDGET.max} refused by the spend cap`);
  const outbox = await (await fetch(`${emulator.url}/_emulator/outbox`)).json();
  const texts = new Set(outbox.messages.map((m) => m.text));
  if (outbox.messages.length !== BUDGET.max || texts.size !== BUDGET.max) fail(`the emulator's outbox holds ${outbox.messages.length} messages (${texts.size} distinct), expected ${BUDGET.max}`);
  console.log(`2. The phones received ${outbox.messages.length} distinct messages, e.g. "${outbox.messages[0].text}"`);

  for (let i = 0; reports.size < first.sent; i++) {
    if (i === 600) fail(`only ${reports.size} of ${first.sent} delivery reports went through the queue`);
    await new Promise((r) => setTimeout(r, 100));
  }
  if (!first.referenceIds.every((id) => reports.has(id))) fail('a delivery report does not match a sent message');
  const failed = [...reports.values()].filter((o) => o === 'failed').length;
  console.log(`3. ${reports.size} delivery reports (${failed} failed deliveries) verified, queued in BullMQ (job id = callback identity) and processed once each`);

  const again = await runSenders(runId);
  const after = await (await fetch(`${emulator.url}/_emulator/outbox`)).json();
  const numbers = new Set(after.messages.map((m) => m.phoneNumber));
  if (numbers.size !== after.messages.length) fail('the restarted run sent a message twice');
  if (!first.referenceIds.every((id) => again.referenceIds.includes(id))) fail('the restarted run did not answer what the first had sent');
  // The budget is on Redis: the users refused by it stay refused.
  if (after.messages.length !== BUDGET.max) fail(`the restarted run passed the shared budget: ${after.messages.length} messages`);
  console.log(`4. The workers restarted with the same run id: ${first.sent} answered from the idempotency keys on Redis, none sent twice, the budget still spent`);
  console.log('Done: paced, capped, resumable; callbacks through the queue.');
} catch (error) {
  fail(error?.stack ?? error);
} finally {
  await receiver.close();
  await emulator.close();
  redis.kill('SIGTERM');
}

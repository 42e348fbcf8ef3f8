// idempotencyKey across processes: two real Node processes (test/fixtures/idempotent-sender.mjs,
// the BUILT @x/client with createIdempotency over this package's store) share a real
// redis-server and send through the real emulator over HTTP on 127.0.0.1, whose outbox counts the
// SMS that went out. Then a redis-server of this test's own is killed between begin and complete.
import { DEFAULT_CUSTOMER } from '@x/emulator';
import { startEmulator, type RunningEmulator } from '@x/emulator/node';
import { Redis, type RedisOptions } from 'ioredis';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createClient } from '@x/client';
import { createIdempotency } from '@x/client/idempotency';
import { freePort } from '../../../testing/support.js';
import { createRedisReplayStore } from '../src/index.js';
import { startReplyDroppingProxy } from './support/reply-dropping-proxy.js';

interface Outcome {
  referenceId?: string;
  error?: { name: string; code: string; sent: unknown };
  message?: string;
  storeErrors: string[];
}

const sharedPort = inject('redisPort');
const children: ChildProcess[] = [];
let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ deliveryDelayMs: 10 });
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await emulator.close();
});

const unique = () => `idem-${Math.random().toString(36).slice(2)}:`;
let phones = 0;
const freshPhone = () => `1555556${String(1000 + phones++).padStart(4, '0')}`;
const sent = (phoneNumber: string) => emulator.emulator.outbox.list({ phoneNumber }).length;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Runs one sending process to its end; resolves what it printed. */
function sendFromProcess(redisPort: number, prefix: string, key: string, phone: string, waitMs?: number, leaseMs?: number): Promise<Outcome> {
  return outcomeOf(startSender(redisPort, prefix, key, phone, waitMs, leaseMs));
}

function startSender(redisPort: number, prefix: string, key: string, phone: string, waitMs?: number, leaseMs?: number): ChildProcess {
  const child = spawn(process.execPath, [fileURLToPath(new URL('./fixtures/idempotent-sender.mjs', import.meta.url))], {
    env: { ...process.env, REDIS_PORT: String(redisPort), PREFIX: prefix, BASE_URL: emulator.url, CUSTOMER_ID: DEFAULT_CUSTOMER.customerId, API_KEY: DEFAULT_CUSTOMER.apiKey, KEY: key, PHONE: phone, WAIT_MS: waitMs === undefined ? '' : String(waitMs), LEASE_MS: leaseMs === undefined ? '' : String(leaseMs) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return child;
}

function outcomeOf(child: ChildProcess): Promise<Outcome> {
  return new Promise<Outcome>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (line) => resolve(JSON.parse(line) as Outcome));
    child.once('exit', (code) => reject(new Error(`the sending process exited (${code}) without an outcome`)));
  });
}

describe('idempotencyKey across two processes sharing a real Redis', () => {
  it('the same key from two processes at once: one SMS, both get its reference id', async () => {
    const prefix = unique();
    const phone = freshPhone();
    // The first send is held at the emulator, so that the other process begins while it is in progress.
    emulator.emulator.faults.add({ type: 'latency', ms: 800, path: '/v1/messaging' });
    const [a, b] = await Promise.all([sendFromProcess(sharedPort, prefix, 'order-1', phone), sendFromProcess(sharedPort, prefix, 'order-1', phone)]);
    expect(sent(phone)).toBe(1);
    expect(a.referenceId).toBeDefined();
    expect(b.referenceId).toBe(a.referenceId);
  });

  it('the same key from one process after the other: one SMS; another key: another SMS', async () => {
    const prefix = unique();
    const phone = freshPhone();
    const first = await sendFromProcess(sharedPort, prefix, 'order-2', phone);
    const second = await sendFromProcess(sharedPort, prefix, 'order-2', phone);
    expect(second.referenceId).toBe(first.referenceId);
    expect(sent(phone)).toBe(1);
    const redis = new Redis({ port: sharedPort, host: '127.0.0.1' });
    const [kept] = await redis.keys(`${prefix}*`);
    const ttl = await redis.pttl(kept!);
    redis.disconnect();
    expect(kept).toBe(`${prefix}idempotency:${DEFAULT_CUSTOMER.customerId}:POST /v1/messaging:order-2`);
    expect(ttl).toBeGreaterThan(23 * 3_600_000); // held for the default ttlMs, 24 h
    expect(ttl).toBeLessThanOrEqual(24 * 3_600_000);
    const other = await sendFromProcess(sharedPort, prefix, 'order-2b', phone);
    expect(other.referenceId).not.toBe(first.referenceId);
    expect(sent(phone)).toBe(2);
  });

  it('a process killed mid-send: the other process gets idempotency_unknown as soon as the lease lapses (not a wait then "retry later"), and sends nothing', async () => {
    const prefix = unique();
    const phone = freshPhone();
    const watcher = new Redis({ port: sharedPort, host: '127.0.0.1' });
    try {
      emulator.emulator.faults.add({ type: 'latency', ms: 3000, path: '/v1/messaging' });
      const a = startSender(sharedPort, prefix, 'order-4', phone, undefined, 600);
      // Killed once its key is marked as being sent (its request is on its way).
      for (let i = 0; !String(await watcher.get(`${prefix}idempotency:${DEFAULT_CUSTOMER.customerId}:POST /v1/messaging:order-4`)).startsWith('s:'); i++) {
        if (i > 200) throw new Error('the first process did not start sending within 10 s');
        await sleep(50);
      }
      a.kill('SIGKILL'); // dies mid-send: it never completes nor abandons, and stops renewing
      // B may wait up to 10 s (the default): it must not need to, nor be told to retry later.
      const b = await sendFromProcess(sharedPort, prefix, 'order-4', phone, 10_000, 600);
      expect(b.error).toEqual({ name: 'IdempotencyError', code: 'idempotency_unknown', sent: 'unknown' });
      expect(b.message).toContain('stopped');
      expect(b.message).not.toContain('Retry later');
      expect(b.referenceId).toBeUndefined();
      expect(sent(phone)).toBe(0); // the killed process's request was abandoned by the emulator; the other never sent one
      // Reconciliation from a third place: the key is stalled; once known not sent, released, and the same key sends once.
      const idempotency = createIdempotency({ store: createRedisReplayStore({ client: watcher, prefix }) });
      const scope = { customerId: DEFAULT_CUSTOMER.customerId, operation: 'POST /v1/messaging' };
      const state = await idempotency.inspect('order-4', scope);
      expect(state).toMatchObject({ state: 'stalled' });
      expect(state!.leaseUntil).toBeGreaterThan(state!.sendingSince!);
      await expect(idempotency.release('order-4', scope as never)).rejects.toThrow('confirmNotSent: true');
      expect(await idempotency.release('order-4', { ...scope, confirmNotSent: true })).toBe(true);
      const c = await sendFromProcess(sharedPort, prefix, 'order-4', phone, undefined, 600);
      expect(c.referenceId).toBeDefined();
      expect(sent(phone)).toBe(1);
    } finally {
      watcher.disconnect();
    }
  });

  it('Redis killed between begin and complete: the sender keeps its answer, the next process gets a typed error, never a second SMS', async () => {
    const port = await freePort();
    const server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    children.push(server);
    const watcher = new Redis({ port, host: '127.0.0.1', retryStrategy: (times) => (times > 50 ? null : 50), maxRetriesPerRequest: 0 });
    watcher.on('error', () => {});
    try {
      for (let i = 0; !(await watcher.ping().then(() => true, () => false)); i++) {
        if (i > 100) throw new Error('redis-server did not answer PING within 5 s');
        await sleep(50);
      }
      const prefix = unique();
      const phone = freshPhone();
      // The send is held at the emulator long enough for Redis to die while the key is in progress.
      emulator.emulator.faults.add({ type: 'latency', ms: 1500, path: '/v1/messaging' });
      const first = sendFromProcess(port, prefix, 'order-3', phone);
      // Killed once the key is marked as being sent (the request is on its way, held by the latency):
      // killed any earlier, the process rightly sends nothing.
      for (let i = 0; !String(await watcher.get(`${prefix}idempotency:${DEFAULT_CUSTOMER.customerId}:POST /v1/messaging:order-3`)).startsWith('s:'); i++) {
        if (i > 200) throw new Error('the first process did not start sending within 10 s');
        await sleep(50);
      }
      server.kill('SIGKILL');
      const a = await first;
      expect(a.referenceId).toBeDefined(); // it did send: its answer stands
      expect(a.storeErrors.length).toBeGreaterThanOrEqual(1); // and complete() failing was reported (lease renewals too)
      const b = await sendFromProcess(port, prefix, 'order-3', phone);
      expect(b.error).toEqual({ name: 'IdempotencyError', code: 'idempotency_store', sent: false });
      expect(sent(phone)).toBe(1);
    } finally {
      watcher.disconnect();
      if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
    }
  });
});

describe('idempotencyKey when Redis\'s reply to begin is lost (a TCP proxy drops it and cuts the connection)', () => {
  // The begin script's text: the proxy loses the reply to the first command that carries it.
  const BEGIN_MARKER = "return 'started'";
  const scope = { customerId: DEFAULT_CUSTOMER.customerId, operation: 'POST /v1/messaging' };

  async function through(options: RedisOptions) {
    const proxy = await startReplyDroppingProxy(sharedPort, BEGIN_MARKER);
    const redis = new Redis({ port: proxy.port, host: '127.0.0.1', ...options });
    redis.on('error', () => {}); // the cut connection: ioredis reconnects
    await new Promise((resolve) => redis.once('ready', resolve));
    const store = createRedisReplayStore({ client: redis, prefix: unique() });
    const idempotency = createIdempotency({ store, leaseMs: 1_000 });
    const client = createClient({ ...DEFAULT_CUSTOMER, baseUrl: emulator.url, retry: false, idempotency });
    return { proxy, redis, idempotency, client, close: async () => (redis.disconnect(), await proxy.close()) };
  }
  const send = (client: ReturnType<typeof createClient>, phone: string, key: string) => client.messaging.send({ phoneNumber: phone, message: 'Your order has shipped', messageType: 'ARN' }, { idempotencyKey: key });

  it('a client that does not resend: the call fails with nothing sent, and a retry with the same key sends once after the short lease', async () => {
    const phone = freshPhone();
    const t = await through({ autoResendUnfulfilledCommands: false, maxRetriesPerRequest: 0 });
    try {
      const error = await send(t.client, phone, 'lost-1').then(() => undefined, (e: unknown) => e as { code: string; sent: unknown; message: string });
      expect(t.proxy.dropped).toBe(1);
      expect(error).toMatchObject({ name: 'IdempotencyError', code: 'idempotency_store', sent: false });
      expect(error!.message).toContain('retry with the same key');
      expect(sent(phone)).toBe(0);
      expect(await t.idempotency.inspect('lost-1', scope)).toMatchObject({ state: 'reserved' }); // Redis did run the begin
      const { data } = await send(t.client, phone, 'lost-1'); // waits out the reservation (1 s), then sends
      expect(sent(phone)).toBe(1);
      expect((await send(t.client, phone, 'lost-1')).data.reference_id).toBe(data.reference_id);
      expect(await t.idempotency.inspect('lost-1', scope)).toMatchObject({ state: 'answered', referenceId: data.reference_id });
      expect(sent(phone)).toBe(1);
    } finally {
      await t.close();
    }
  });

  it('a client that resends the unanswered begin (ioredis by default): the resent begin is the same begin, one SMS', async () => {
    const phone = freshPhone();
    const t = await through({});
    try {
      const { data } = await send(t.client, phone, 'lost-2');
      expect(t.proxy.dropped).toBe(1);
      expect(sent(phone)).toBe(1);
      expect((await send(t.client, phone, 'lost-2')).data.reference_id).toBe(data.reference_id);
      expect(sent(phone)).toBe(1);
    } finally {
      await t.close();
    }
  });
});

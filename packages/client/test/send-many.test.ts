import { DEFAULT_CUSTOMER } from '@x/emulator';
import { startEmulator, type RunningEmulator } from '@x/emulator/node';
import { createMemoryReplayStore } from '@x/auth';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../src/index.js';
import { createIdempotency } from '../src/idempotency.js';
import { createMemoryRateLimitStore, createSpendCap, sendMany, SpendCapError, type RateLimitStore, type SendManyEvent, type SendManyItem, type SendManyResult } from '../src/volume.js';

let server: RunningEmulator;
beforeAll(async () => {
  server = await startEmulator({ deliveryDelayMs: 10 });
});
afterAll(() => server.close());
beforeEach(() => server.emulator.faults.clear());

let run = 0;
/** Numbers of their own per test: the emulator's outbox is shared. */
function items(count: number, text = (i: number) => `Hi user ${i}, your order shipped`): SendManyItem[] {
  run++;
  return Array.from({ length: count }, (_, i) => ({ id: `user-${i}`, params: { phoneNumber: `1555${String(run).padStart(3, '0')}${String(i).padStart(4, '0')}`, message: text(i), messageType: 'ARN' as const } }));
}
const sentTo = (list: SendManyItem[]) => list.flatMap((item) => server.emulator.outbox.list({ phoneNumber: item.params.phoneNumber }));
const collect = async (results: AsyncIterable<SendManyResult>) => {
  const out: SendManyResult[] = [];
  for await (const r of results) out.push(r);
  return out;
};
function setup() {
  const store = createMemoryReplayStore(); // outlives a "crashed" run: what a Redis store is across processes
  const idempotency = createIdempotency({ store });
  const client = createClient({ ...DEFAULT_CUSTOMER, baseUrl: server.url, idempotency });
  return { client, idempotency, resume: { idempotency, customerId: DEFAULT_CUSTOMER.customerId } };
}

describe('sendMany against the emulator', () => {
  it('sends each personalised item once, with its reference id, and reports progress', async () => {
    const { client } = setup();
    const list = items(30);
    const events: SendManyEvent[] = [];
    async function* slowly() {
      for (const item of list) yield item; // an async iterable in
    }
    const results = await collect(sendMany(client, slowly(), { runId: 'run-a', concurrency: 5, onEvent: (e) => events.push(e) }));
    expect(results).toHaveLength(30);
    expect(results.every((r) => r.status === 'sent')).toBe(true);
    const outbox = sentTo(list);
    expect(outbox).toHaveLength(30);
    for (const r of results) {
      if (r.status !== 'sent') continue;
      const i = Number(r.id.slice('user-'.length));
      expect(r.idempotencyKey).toBe(`run-a:user-${i}`);
      expect(outbox.find((m) => m.referenceId === r.referenceId)?.text).toBe(`Hi user ${i}, your order shipped`);
    }
    expect(events.filter((e) => e.type === 'progress').at(-1)).toEqual({ type: 'progress', done: 30, sent: 30, refused: 0, unknown: 0, inFlight: 0 });
  });

  it('a run restarted after it stopped half-way never sends an item twice; one that may have gone out stays unknown', async () => {
    const { client } = setup();
    const list = items(20);
    // The first request (item 0) is processed, then its connection dropped: it may have gone out.
    server.emulator.faults.add({ type: 'drop', method: 'POST', path: '/v1/messaging', times: 1 });
    const first: SendManyResult[] = [];
    for await (const r of sendMany(client, list, { runId: 'run-b', concurrency: 1 })) {
      first.push(r);
      if (first.length === 8) break; // the worker stops here (a deploy, a crash)
    }
    const again = await collect(sendMany(client, list, { runId: 'run-b', concurrency: 4 }));
    expect(again).toHaveLength(20);
    expect(first[0]).toMatchObject({ id: 'user-0', status: 'unknown' });
    expect(again.find((r) => r.id === 'user-0')).toMatchObject({ status: 'unknown' });
    expect(again.filter((r) => r.status === 'sent')).toHaveLength(19);
    // Each number got exactly one message, item 0 included (processed once, never re-sent).
    for (const item of list) expect(server.emulator.outbox.list({ phoneNumber: item.params.phoneNumber })).toHaveLength(1);
    // The restarted run gave the first run's answers for what it had sent.
    for (const r of first) if (r.status === 'sent') expect(again.find((a) => a.id === r.id)).toMatchObject({ status: 'sent', referenceId: r.referenceId });
  });

  it('a 429 with Retry-After pauses every sender of the limiter, and the item is then sent once', async () => {
    const { client } = setup();
    const list = items(6);
    const limiter = createMemoryRateLimitStore();
    const pauses: number[] = [];
    const shared: RateLimitStore = { acquire: (k, r) => limiter.acquire(k, r), pause: async (k, until) => {
        pauses.push(until);
        await limiter.pause(k, until);
      },
    };
    server.emulator.faults.add({ type: 'status', status: 429, retryAfterSeconds: 1, method: 'POST', path: '/v1/messaging' });
    const events: SendManyEvent[] = [];
    const results = await collect(sendMany(client, list, { runId: 'run-c', concurrency: 1, rate: { perSecond: 100, store: shared }, onEvent: (e) => events.push(e) }));
    expect(results.every((r) => r.status === 'sent')).toBe(true);
    expect(pauses).toHaveLength(1);
    expect(events.filter((e) => e.type === 'paused')).toHaveLength(1);
    // Another sender on the same store and key (another worker) is held too.
    const before = Date.now();
    await limiter.pause('messaging', before + 60_000);
    expect(await limiter.acquire('messaging', { perSecond: 100, burst: 1 })).toBeGreaterThan(50_000);
    for (const item of list) expect(server.emulator.outbox.list({ phoneNumber: item.params.phoneNumber })).toHaveLength(1);
  });

  it('a 429 that never ends is refused as rate_limited after maxRetries, nothing sent', async () => {
    const { client } = setup();
    const list = items(1);
    server.emulator.faults.add({ type: 'status', status: 429, retryAfterSeconds: 0, method: 'POST', path: '/v1/messaging', times: 10 });
    const [result] = await collect(sendMany(client, list, { runId: 'run-d', maxRetries: 2 }));
    expect(result).toMatchObject({ status: 'refused', reason: 'rate_limited' });
    expect(sentTo(list)).toHaveLength(0);
  });

  it('a spend cap refuses the send that would pass it before its request, naming the budget; a restart is not charged twice', async () => {
    const { client, resume } = setup();
    // 10 parts: ten GSM-7 messages, or five that one emoji made UCS-2 and two parts long.
    const cap = createSpendCap({ budgets: [{ name: 'campaign', max: 10, periodMs: 60_000 }] });
    const list = items(8, (i) => (i % 2 ? `Hi ${i} 🎉 ${'x'.repeat(70)}` : `Hi ${i}`));
    const journalBefore = server.emulator.journal.list().length;
    const results = await collect(sendMany(client, list, { runId: 'run-e', concurrency: 1, spend: cap, resume }));
    const refused = results.filter((r) => r.status === 'refused');
    // Items 0..5 cost 1+2+1+2+1+2 = 9 parts; item 6 (1 part) fits, item 7 (2) does not.
    expect(results.filter((r) => r.status === 'sent').map((r) => r.id)).toEqual(['user-0', 'user-1', 'user-2', 'user-3', 'user-4', 'user-5', 'user-6']);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ id: 'user-7', reason: 'spend_cap' });
    expect((refused[0] as { error: unknown }).error).toBeInstanceOf(SpendCapError);
    expect((refused[0] as { error: SpendCapError }).error).toMatchObject({ budget: 'campaign', used: 10, parts: 2 });
    expect(server.emulator.outbox.list({ phoneNumber: list[7]!.params.phoneNumber })).toHaveLength(0);
    expect(server.emulator.journal.list().length - journalBefore).toBe(7); // no request for the refused one
    // The same run again: what went out is answered from the store, not charged (nothing is refused that was sent).
    const again = await collect(sendMany(client, list, { runId: 'run-e', concurrency: 1, spend: cap, resume }));
    expect(again.filter((r) => r.status === 'sent')).toHaveLength(7);
    expect(again.find((r) => r.id === 'user-7')).toMatchObject({ status: 'refused', reason: 'spend_cap' });
    expect(sentTo(list)).toHaveLength(7);
  });

  it('refuses invalid items one by one and goes on', async () => {
    const { client } = setup();
    const list = items(3);
    const bad = [list[0]!, { id: '', params: list[1]!.params }, { id: 'x', params: { ...list[2]!.params, phoneNumber: '12' } }];
    const results = await collect(sendMany(client, bad, { runId: 'run-f' }));
    expect(results.map((r) => r.status).sort()).toEqual(['refused', 'refused', 'sent']);
    expect(results.filter((r) => r.status === 'refused').every((r) => r.status === 'refused' && r.reason === 'invalid')).toBe(true);
  });

  it('refuses to run without the client idempotency option, before any send', async () => {
    const client = createClient({ ...DEFAULT_CUSTOMER, baseUrl: server.url });
    const list = items(3);
    await expect(collect(sendMany(client, list, { runId: 'run-g' }))).rejects.toMatchObject({ code: 'configuration_error' });
    expect(sentTo(list)).toHaveLength(0);
    const { client: c } = setup();
    await expect(sendMany(c, list, { runId: 'r', spend: createSpendCap({ budgets: [] }) }).next()).rejects.toThrow(/resume/);
  });

  it('one key per item of one run: a run id with ":" is refused (run "a:b" item "c" would be run "a" item "b:c")', async () => {
    const { client } = setup();
    const list = items(1);
    await expect(collect(sendMany(client, list, { runId: 'campaign:2024' }))).rejects.toMatchObject({ code: 'configuration_error' });
    expect(sentTo(list)).toHaveLength(0);
  });

  it('a failing rate store sends nothing (closed)', async () => {
    const { client } = setup();
    const list = items(2);
    const broken: RateLimitStore = { acquire: async () => Promise.reject(new Error('redis down')), pause: async () => {} };
    const results = await collect(sendMany(client, list, { runId: 'run-h', rate: { perSecond: 10, store: broken } }));
    expect(results.every((r) => r.status === 'refused' && r.reason === 'store')).toBe(true);
    expect(sentTo(list)).toHaveLength(0);
  });
});

// The emulator's per-transaction state is bounded and drops its oldest entry first:
// transactions (maxTransactions), Verify API verifications, each account's recent calls. What is
// dropped answers as an unknown reference id does, the newest are kept, and nothing of a dropped
// entry stays alive (its timers are cancelled, its owner forgotten).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CallbackSender } from '../src/state/callbacks.js';
import { createEmulator } from '../src/index.js';
import { Outbox, OUTBOX_SIZE } from '../src/state/outbox.js';
import { Scheduler } from '../src/state/scheduler.js';
import { TransactionStore, type Transaction } from '../src/state/store.js';
import { Transactions } from '../src/state/transactions.js';
import { customer, local } from './helpers.js';

const sms = { phone_number: '15555550100', message: 'x', message_type: 'ARN' };
const UNKNOWN = '0123456789ABCDEF0123456789ABCDEF';
/** An answer without its timestamps, to compare two answers. */
const shape = (r: { status: number; body: unknown }) => JSON.parse(JSON.stringify(r, (k, v) => (k === 'updated_on' || k === 'headers' ? undefined : v)));

describe('the transaction store', () => {
  it('keeps the newest `capacity` in the order they were made, and drops the others oldest first (property)', () => {
    const op = fc.oneof(
      { arbitrary: fc.record({ add: fc.integer({ min: 0, max: 10 }) }), weight: 6 },
      { arbitrary: fc.record({ find: fc.nat() }), weight: 3 },
      { arbitrary: fc.constant({ clear: true as const }), weight: 1 },
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 }), fc.array(op, { minLength: 10, maxLength: 100 }), (capacity, ops) => {
        const store = new TransactionStore(20, capacity);
        const dropped: string[] = [];
        store.onEvict = (tx) => dropped.push(tx.referenceId);
        let model: Array<{ id: string; createdAt: number }> = [];
        const expectedDropped: string[] = [];
        let now = 0;
        let n = 0;
        const live = () => model.filter((m) => m.createdAt + 20 > now);
        for (const o of ops) {
          if ('add' in o) {
            now += o.add; // time passes: some expire (retention 20)
            const id = (n++).toString(16).toUpperCase().padStart(32, '0');
            while (model.length && (model[0]!.createdAt + 20 <= now || model.length >= capacity)) expectedDropped.push(model.shift()!.id);
            model.push({ id, createdAt: now });
            store.add({ referenceId: id, createdAt: now } as Transaction, now);
          } else if ('find' in o) {
            const wanted = model[o.find % Math.max(1, model.length)];
            if (wanted) {
              const found = store.find(wanted.id, now);
              if (wanted.createdAt + 20 > now) expect(found?.referenceId).toBe(wanted.id);
              else {
                expect(found).toBeUndefined();
                expectedDropped.push(wanted.id);
                model = model.filter((m) => m !== wanted);
              }
            }
          } else {
            store.clear();
            model = [];
          }
          expect([...store.values(now)].map((tx) => tx.referenceId)).toEqual(live().map((m) => m.id));
          expect(store.size).toBe(model.length);
          expect(dropped).toEqual(expectedDropped);
        }
      }),
    );
  });
});

describe('transactions beyond maxTransactions', () => {
  it('the oldest are dropped and answer as an unknown reference id; the newest are kept', async () => {
    const warnings: string[] = [];
    const emulator = createEmulator({ maxTransactions: 3, logger: { error: () => undefined, warn: (m) => warnings.push(m) } });
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await local(emulator, 'POST', '/v1/messaging', { form: sms })).body.reference_id);
    expect(emulator.transactions.size).toBe(3);
    expect(emulator.transactions.list().map((t) => t.referenceId)).toEqual(ids.slice(-3));
    const unknown = shape(await local(emulator, 'GET', `/v1/messaging/${UNKNOWN}`));
    expect(unknown.status).toBe(404);
    for (const id of ids.slice(0, 4)) {
      expect(shape(await local(emulator, 'GET', `/v1/messaging/${id}`))).toEqual(unknown);
      expect(emulator.transactions.get(id)).toBeUndefined();
    }
    for (const id of ids.slice(-3)) expect((await local(emulator, 'GET', `/v1/messaging/${id}`)).status).toBe(200);
    // Dropped before their final status: said once, with what to do.
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/maxTransactions \(3\) reached.*no callback.*Raise maxTransactions/);
    emulator.close();
  });

  it('a dropped transaction releases its timer and its owner (nothing keeps it alive)', () => {
    const now = 1_000_000;
    const scheduler = new Scheduler(() => now);
    const early: string[] = [];
    const transactions = new Transactions(new TransactionStore(3_600_000, 3), new CallbackSender({}, scheduler), scheduler, () => now, { sms: 1_000, voice: 1_000 }, undefined, (tx) =>
      early.push(tx.referenceId),
    );
    const owner = { ...customer, callbackUrl: 'http://127.0.0.1:9/cb' };
    const made = Array.from({ length: 10 }, () => transactions.create('sms', owner, { phone_number: '15555550100' }));
    expect(scheduler.size).toBe(3);
    expect(transactions.size).toBe(3);
    expect(early).toEqual(made.slice(0, 7).map((t) => t.referenceId));
    // The owner is forgotten: the view of a dropped transaction no longer finds the account's callback URL.
    expect(transactions.view(made[0]!).callbackUrl).toBeUndefined();
    expect(transactions.view(made[9]!).callbackUrl).toBe(owner.callbackUrl);
    scheduler.close();
  });

  it('transactions without a callback URL settle at their time, in order; dropped or already final ones are not settled', () => {
    let now = 1_000_000;
    const scheduler = new Scheduler(() => now);
    const early: string[] = [];
    const changed: string[] = [];
    const transactions = new Transactions(new TransactionStore(3_600_000, 6), new CallbackSender({}, scheduler), scheduler, () => now, { sms: 1_000, voice: 1_000 }, (tx) => changed.push(`${tx.referenceId}:${tx.history.length}`), (tx) =>
      early.push(tx.referenceId),
    );
    const made = Array.from({ length: 8 }, (_, i) => {
      now += 1; // each its own millisecond, as under load
      return transactions.create('sms', customer, { phone_number: i % 2 ? '15555550100' : '15555550101' });
    });
    // The store keeps six: the first two were dropped before their final status, their tasks cancelled.
    expect(scheduler.size).toBe(6);
    expect(early).toEqual(made.slice(0, 2).map((t) => t.referenceId));
    // One is given its final status early: its task is cancelled.
    transactions.setStatus(made[5]!.referenceId, 207);
    expect(scheduler.size).toBe(5);
    // Another settles before the last ones made (a shorter delay).
    now += 1;
    const sooner = transactions.create('sms', customer, { phone_number: '15555550100' }, { delayMs: 100 });
    expect(scheduler.size).toBe(5);
    expect(early).toEqual(made.slice(0, 3).map((t) => t.referenceId)); // it pushed out the third
    changed.length = 0;
    now += 1_000;
    scheduler.runDue();
    // Settled once each, in order of their time; the dropped ones and the one set by hand not again.
    expect(changed).toEqual([sooner, made[3]!, made[4]!, made[6]!, made[7]!].map((t) => `${t.referenceId}:2`));
    for (const tx of made.slice(0, 3)) expect(tx.history).toHaveLength(1);
    expect(made[5]!.history.map((h) => h.code)).toEqual([290, 207]); // 207 by hand: not settled again
    expect(scheduler.size).toBe(0);
    // A later transaction settles as the first did.
    const later = transactions.create('sms', customer, { phone_number: '15555550100' });
    expect(scheduler.size).toBe(1);
    now += 1_000;
    scheduler.runDue();
    expect(later.history).toHaveLength(2);
    scheduler.close();
  });

  it('expired transactions go as new ones arrive, and their settled timers are not counted as early', () => {
    let now = 1_000_000;
    const scheduler = new Scheduler(() => now);
    const early: unknown[] = [];
    const store = new TransactionStore(10_000, 100);
    const transactions = new Transactions(store, new CallbackSender({}, scheduler), scheduler, () => now, { sms: 1_000, voice: 1_000 }, undefined, (tx) => early.push(tx));
    const first = transactions.create('sms', customer, { phone_number: '15555550100' });
    now += 5_000;
    scheduler.runDue();
    const second = transactions.create('sms', customer, { phone_number: '15555550100' });
    now += 6_000; // the first is 11 s old: expired
    const third = transactions.create('sms', customer, { phone_number: '15555550100' });
    expect(transactions.find(first.referenceId)).toBeUndefined();
    expect([...store.values(now)]).toEqual([second, third]);
    expect(store.size).toBe(2);
    expect(early).toEqual([]);
    scheduler.close();
  });

  it('maxTransactions must be a whole number >= 1', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => createEmulator({ maxTransactions: bad })).toThrow(/maxTransactions must be a whole number >= 1/);
  });
});

describe('Verify API verifications beyond the cap', () => {
  it('the oldest are dropped (unknown reference id, no fallback, no callback); the newest are kept', async () => {
    const callbacks: string[] = [];
    const emulator = createEmulator({
      maxTransactions: 2,
      customers: [{ ...customer, callbackUrl: 'http://receiver.test/cb' }],
      callbacks: { fetch: async (_url, init) => (callbacks.push(String((init as RequestInit).body)), new Response(null, { status: 200 })) },
    });
    const create = () => local(emulator, 'POST', '/verification', { json: { recipient: { phone_number: '15555550100' }, verification_policy: [{ method: 'sms', fallback_time: 30 }, { method: 'sms' }] } });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await create()).body.reference_id);
    const unknown = shape(await local(emulator, 'GET', `/verification/${UNKNOWN}`));
    expect(unknown.status).toBe(404);
    for (const id of ids.slice(0, 3)) expect(shape(await local(emulator, 'GET', `/verification/${id}`))).toEqual(unknown);
    for (const id of ids.slice(3)) expect((await local(emulator, 'GET', `/verification/${id}`)).status).toBe(200);
    // Past every fallback and deadline: only the kept ones send their fallback and their FAILED callback.
    const before = emulator.outbox.list().length;
    await emulator.clock.advance(3_600_000);
    await emulator.idle();
    expect(emulator.outbox.list().length - before).toBe(2);
    expect(callbacks.map((b) => JSON.parse(b).reference_id).sort()).toEqual(ids.slice(3).sort());
    emulator.close();
  });
});

describe('GET /v1/voice (recent calls)', () => {
  it('lists the last 100 calls of the account, newest first', async () => {
    const emulator = createEmulator();
    const ids: string[] = [];
    for (let i = 0; i < 103; i++) ids.push((await local(emulator, 'POST', '/v1/voice', { form: sms })).body.reference_id);
    const listed = (await local(emulator, 'GET', '/v1/voice')).body.calls.map((c: { reference_id: string }) => c.reference_id);
    expect(listed).toEqual(ids.slice(-100).reverse());
    emulator.close();
  });
});

describe('the outbox beyond its size', () => {
  it('keeps the newest OUTBOX_SIZE messages, dropping one per message added', () => {
    const outbox = new Outbox(() => 0);
    const add = (i: number) => outbox.add({ referenceId: String(i), customerId: 'c', channel: 'sms', product: 'messaging', phoneNumber: `1555555${String(i % 10_000).padStart(4, '0')}`, text: `#${i}` });
    for (let i = 0; i < OUTBOX_SIZE + 5; i++) add(i);
    const kept = outbox.list();
    expect(kept).toHaveLength(OUTBOX_SIZE);
    expect(kept[0]!.referenceId).toBe('5');
    expect(kept.at(-1)!.referenceId).toBe(String(OUTBOX_SIZE + 4));
    expect(outbox.latest('+1 555 555 0004')!.referenceId).toBe(String(OUTBOX_SIZE + 4));
    outbox.clear();
    expect(outbox.list()).toEqual([]);
  });
});

describe('Scheduler.idle', () => {
  it('waits for foreground tasks (and what they schedule), not for background ones; a cancelled task wakes it', async () => {
    let now = 0;
    const scheduler = new Scheduler(() => now);
    const ran: string[] = [];
    // Times far ahead of the injected clock: the real timers do not fire during the test.
    scheduler.at(100_000, () => ran.push('background'), { background: true });
    scheduler.at(10_000, () => {
      ran.push('first');
      scheduler.at(20_000, () => ran.push('scheduled by first'));
    });
    const cancelled = scheduler.at(50_000, () => ran.push('never'));
    let idle = false;
    const waiting = scheduler.idle().then(() => (idle = true));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(idle).toBe(false); // nothing is due by the clock yet
    now = 20_000;
    scheduler.runDue();
    expect(ran).toEqual(['first', 'scheduled by first']);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(idle).toBe(false); // the task at 50 000 is still pending
    cancelled.cancel();
    await waiting;
    expect(idle).toBe(true);
    expect(ran).toEqual(['first', 'scheduled by first']);
    expect(scheduler.size).toBe(1); // the background task, still waiting for its time
    scheduler.close();
    expect(scheduler.size).toBe(0);
  });

  it('idle() resumes only after the task that woke it has run', async () => {
    let now = 0;
    const scheduler = new Scheduler(() => now);
    const ran: string[] = [];
    scheduler.at(0, () => ran.push('due'));
    scheduler.at(1_000_000, () => ran.push('far'));
    const far = scheduler.idle().then(() => ran.slice());
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(ran).toEqual(['due']);
    // The clock reaches the far task, which runs by hand: idle() sees it done.
    now = 1_000_000;
    scheduler.runDue();
    expect(await far).toEqual(['due', 'far']);
  });
});

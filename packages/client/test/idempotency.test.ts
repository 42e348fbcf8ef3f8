// idempotencyKey against real servers on 127.0.0.1: the emulator over HTTP (its outbox counts the
// SMS that went out, its faults drop or reset connections) and the recording server (scripted
// answers). One process here; two processes sharing a real Redis are in @x/redis's tests.
import { createMemoryReplayStore } from '@x/auth';
import { DEFAULT_CUSTOMER } from '@x/emulator';
import fc from 'fast-check';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ApiError, ConfigurationError, NetworkError, ValidationError, createClient, isClientError, type CreateClientOptions } from '../src/index.js';
import { IdempotencyError, createIdempotency, type IdempotencyOptions } from '../src/idempotency.js';
import { useServers } from './servers.js';

const servers = useServers();
const PHONE = '15555550100';

let phones = 0;
/** A phone number of its own per test, so that the outbox counts only what the test sent. */
const freshPhone = () => `1555555${String(1000 + (phones++ % 9000)).padStart(4, '0')}`;

const client = (idempotency: IdempotencyOptions | false = {}, extra: Partial<CreateClientOptions> = {}) =>
  createClient({ ...DEFAULT_CUSTOMER, baseUrl: servers.emulator.url, retry: false, ...(idempotency ? { idempotency: createIdempotency(idempotency) } : {}), ...extra });

const sms = (c: ReturnType<typeof client>, phoneNumber: string, idempotencyKey?: string, message = 'Your order has shipped') =>
  c.messaging.send({ phoneNumber, message, messageType: 'ARN' }, idempotencyKey === undefined ? {} : { idempotencyKey });

const sent = (phoneNumber: string) => servers.emulator.emulator.outbox.list({ phoneNumber }).length;
const failure = (promise: Promise<unknown>) => promise.then(() => expect.unreachable('it should have failed'), (error: unknown) => error);

describe('idempotencyKey with the memory store, against the emulator', () => {
  it('the same key twice: one SMS, the same answer, the second without a request', async () => {
    const c = client();
    const phone = freshPhone();
    const first = await sms(c, phone, 'order-1');
    const requests = servers.emulator.emulator.transactions.size;
    const second = await sms(c, phone, 'order-1');
    expect(sent(phone)).toBe(1);
    expect(servers.emulator.emulator.transactions.size).toBe(requests);
    expect(second.data).toEqual(first.data);
    expect(second.status).toBe(first.status);
    expect(second.headers.get('content-type')).toBe(first.headers.get('content-type'));
  });

  it('the same key at once from many calls: one SMS, every call gets its answer', async () => {
    const c = client();
    const phone = freshPhone();
    const answers = await Promise.all(Array.from({ length: 8 }, () => sms(c, phone, 'order-2')));
    expect(sent(phone)).toBe(1);
    expect(new Set(answers.map((a) => a.data.reference_id)).size).toBe(1);
  });

  it('different keys send each: two SMS', async () => {
    const c = client();
    const phone = freshPhone();
    const [a, b] = await Promise.all([sms(c, phone, 'order-3a'), sms(c, phone, 'order-3b')]);
    expect(sent(phone)).toBe(2);
    expect(a.data.reference_id).not.toBe(b.data.reference_id);
  });

  it('keys are scoped to the operation: the same key on an SMS and a call sends both', async () => {
    const c = client();
    const phone = freshPhone();
    await sms(c, phone, 'same');
    await c.voice.call({ phoneNumber: phone, message: 'Your order has shipped', messageType: 'ARN' }, { idempotencyKey: 'same' });
    expect(servers.emulator.emulator.outbox.list({ phoneNumber: phone }).map((m) => m.channel).sort()).toEqual(['sms', 'voice']);
  });

  it('keys are scoped to the account: two accounts with one store and the same key send each', async () => {
    const idempotency = createIdempotency();
    const other = { customerId: 'FFFFFFFF-EEEE-DDDD-1234-AB1234567890', apiKey: DEFAULT_CUSTOMER.apiKey };
    const emulator = servers.emulator.emulator;
    emulator.customers.set(other.customerId, other);
    const phone = freshPhone();
    await sms(client(false, { idempotency }), phone, 'shared');
    await sms(client(false, { idempotency, ...other }), phone, 'shared');
    expect(sent(phone)).toBe(2);
  });

  it('a failure that was certainly not sent (connection refused, sent: false) releases the key', async () => {
    const idempotency = createIdempotency();
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const phone = freshPhone();
    const error = await failure(sms(client(false, { idempotency, baseUrl: `http://127.0.0.1:${closed}` }), phone, 'order-4'));
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).sent).toBe(false);
    await sms(client(false, { idempotency }), phone, 'order-4');
    expect(sent(phone)).toBe(1);
  });

  it('a refusal by the service (4xx) releases the key', async () => {
    const c = client();
    const phone = freshPhone();
    servers.emulator.emulator.faults.add({ type: 'error', status: 400, code: 11000, path: '/v1/messaging' });
    expect(await failure(sms(c, phone, 'order-5'))).toBeInstanceOf(ApiError);
    await sms(c, phone, 'order-5');
    expect(sent(phone)).toBe(1);
  });

  it("sent: 'unknown' (processed, then the connection dropped): the key stays held, a typed error, never a second SMS", async () => {
    const c = client();
    const phone = freshPhone();
    servers.emulator.emulator.faults.add({ type: 'drop', path: '/v1/messaging' });
    const error = await failure(sms(c, phone, 'order-6'));
    expect(error).toBeInstanceOf(IdempotencyError);
    expect(isClientError(error) && error.code).toBe('idempotency_unknown');
    expect((error as IdempotencyError).sent).toBe('unknown');
    expect((error as IdempotencyError).cause).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toContain('may have gone out');
    expect(sent(phone)).toBe(1);
    const again = await failure(sms(c, phone, 'order-6'));
    expect(again).toBeInstanceOf(IdempotencyError);
    expect((again as IdempotencyError).code).toBe('idempotency_unknown');
    expect(sent(phone)).toBe(1);
  });

  it('a call that waits no longer than waitMs gets idempotency_in_progress while the first send runs', async () => {
    const c = client({ waitMs: 0 });
    const phone = freshPhone();
    servers.emulator.emulator.faults.add({ type: 'latency', ms: 300, path: '/v1/messaging' });
    const first = sms(c, phone, 'order-7');
    await new Promise((r) => setTimeout(r, 50)); // the first call holds the key (its begin is in memory, at once)
    const error = await failure(sms(c, phone, 'order-7'));
    expect(error).toBeInstanceOf(IdempotencyError);
    expect((error as IdempotencyError).code).toBe('idempotency_in_progress');
    const answer = await first;
    expect((await sms(c, phone, 'order-7')).data.reference_id).toBe(answer.data.reference_id);
    expect(sent(phone)).toBe(1);
  });

  it('keys expire after ttlMs: then the same key sends again', async () => {
    let now = 0;
    const c = client({ store: createMemoryReplayStore({ now: () => now }), ttlMs: 60_000 });
    const phone = freshPhone();
    await sms(c, phone, 'order-8');
    now = 59_999;
    await sms(c, phone, 'order-8');
    expect(sent(phone)).toBe(1);
    now = 60_000;
    await sms(c, phone, 'order-8');
    expect(sent(phone)).toBe(2);
  });

  it('a key reused for another message is idempotency_mismatch, and nothing is sent', async () => {
    const c = client();
    const phone = freshPhone();
    await sms(c, phone, 'order-9', 'first message');
    const error = await failure(sms(c, phone, 'order-9', 'another message'));
    expect(error).toBeInstanceOf(IdempotencyError);
    expect((error as IdempotencyError).code).toBe('idempotency_mismatch');
    expect(sent(phone)).toBe(1);
  });

  it('the same key with another verification code is refused (idempotency_mismatch), and the new code is not lost silently', async () => {
    const c = client();
    const phone = freshPhone();
    await c.verify.sms({ phoneNumber: phone, verifyCode: '111111' }, { idempotencyKey: 'otp-1' });
    const error = await failure(c.verify.sms({ phoneNumber: phone, verifyCode: '222222' }, { idempotencyKey: 'otp-1' }));
    expect(error).toBeInstanceOf(IdempotencyError);
    expect((error as IdempotencyError).code).toBe('idempotency_mismatch');
    expect((error as IdempotencyError).sent).toBe(false);
    expect((error as Error).message).toContain('use a new key');
    expect((error as Error).message).not.toContain('222222');
    expect((error as Error).message).not.toContain('111111');
    expect(servers.emulator.emulator.outbox.list({ phoneNumber: phone })).toHaveLength(1);
    // The same code again with the same key is the same send: its stored answer.
    await c.verify.sms({ phoneNumber: phone, verifyCode: '111111' }, { idempotencyKey: 'otp-1' });
    expect(servers.emulator.emulator.outbox.list({ phoneNumber: phone })).toHaveLength(1);
  });

  it('the same key with another security factor (Verify API) is refused too', async () => {
    const c = client();
    const phone = freshPhone();
    const create = (securityFactor: string) => c.verifyApi.create({ phoneNumber: phone, securityFactor }, { idempotencyKey: 'va-1' });
    await create('1234');
    const error = await failure(create('5678'));
    expect(error).toBeInstanceOf(IdempotencyError);
    expect((error as IdempotencyError).code).toBe('idempotency_mismatch');
  });

  it('verify sends, verification calls and bulk SMS take keys too', async () => {
    const c = client();
    const phone = freshPhone();
    const bulks: string[] = [];
    for (let i = 0; i < 2; i++) {
      await c.verify.sms({ phoneNumber: phone }, { idempotencyKey: 'v' });
      await c.verify.call({ phoneNumber: phone }, { idempotencyKey: 'v' });
      bulks.push((await c.messaging.bulk({ recipients: [phone], template: 'Sale today' }, { idempotencyKey: 'v' })).data.reference_id);
    }
    expect(servers.emulator.emulator.outbox.list({ phoneNumber: phone }).filter((m) => m.product === 'verify').map((m) => m.channel).sort()).toEqual(['sms', 'voice']);
    expect(bulks[1]).toBe(bulks[0]);
  });

  it('a key without the idempotency option is a ConfigurationError, and nothing is sent', async () => {
    const phone = freshPhone();
    const error = await failure(sms(client(false), phone, 'order-10'));
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toContain('createIdempotency()');
    expect(sent(phone)).toBe(0);
  });

  it('a bad key is a ValidationError that says what a key is, and nothing is sent', async () => {
    const phone = freshPhone();
    for (const bad of ['', 'k'.repeat(256), 42 as unknown as string]) {
      const error = await failure(sms(client(), phone, bad));
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as Error).message).toContain('1 to 255 characters');
    }
    expect(sent(phone)).toBe(0);
  });

  it('a store that fails before the send: idempotency_store (sent: false), nothing sent', async () => {
    const broken = { ...createMemoryReplayStore(), begin: () => Promise.reject(new Error('store down')) };
    const phone = freshPhone();
    const error = await failure(sms(client({ store: broken }), phone, 'order-11'));
    expect(error).toBeInstanceOf(IdempotencyError);
    expect((error as IdempotencyError).code).toBe('idempotency_store');
    expect((error as IdempotencyError).sent).toBe(false);
    expect(sent(phone)).toBe(0);
  });

  it('refuses bad options with a ConfigurationError', () => {
    expect(() => createIdempotency({ ttlMs: 0 })).toThrow(ConfigurationError);
    expect(() => createIdempotency({ waitMs: -1 })).toThrow(ConfigurationError);
    expect(() => createIdempotency({ leaseMs: 2 })).toThrow(ConfigurationError);
    expect(() => createIdempotency({ store: {} as never })).toThrow('begin, complete, abandon, sending, inspect, release');
    // A callbacks-only store (no two phases) is refused up front: with it a send could go out twice.
    const { sending: _s, inspect: _i, release: _r, ...callbacksOnly } = createMemoryReplayStore();
    expect(() => createIdempotency({ store: callbacksOnly })).toThrow('the store has no sending, inspect, release');
  });
});

describe('idempotencyKey in two phases: a reservation that never sent, a sender that stopped, reconciliation', () => {
  const scope = { customerId: DEFAULT_CUSTOMER.customerId, operation: 'POST /v1/messaging' };

  it('a store reply lost during begin (nothing sent): idempotency_store, then a retry sends once within the lease', async () => {
    const inner = createMemoryReplayStore();
    let lose = 1;
    // The store does the begin, and its answer never reaches the caller (a dropped reply).
    const store = {
      ...inner,
      begin(key: string, leaseMs: number) {
        const begun = inner.begin(key, leaseMs);
        return lose-- > 0 ? Promise.reject(new Error('connection lost')) : begun;
      },
    };
    const c = client({ store, leaseMs: 300, waitMs: 5_000 });
    const phone = freshPhone();
    const lost = await failure(sms(c, phone, 'lost-1'));
    expect(lost).toBeInstanceOf(IdempotencyError);
    expect((lost as IdempotencyError).code).toBe('idempotency_store');
    expect((lost as IdempotencyError).sent).toBe(false);
    expect(sent(phone)).toBe(0);
    const idempotency = createIdempotency({ store, leaseMs: 300 });
    expect((await idempotency.inspect('lost-1', scope))?.state).toBe('reserved');
    const retried = await sms(c, phone, 'lost-1'); // waits out the 300 ms reservation, then sends
    expect(retried.data.reference_id).toBeDefined();
    expect(sent(phone)).toBe(1);
    expect((await sms(c, phone, 'lost-1')).data.reference_id).toBe(retried.data.reference_id);
    expect(sent(phone)).toBe(1);
  });

  it('a sender that stops renewing (its process died mid-send): idempotency_unknown at once, not a wait then "retry later"; never a second SMS', async () => {
    const inner = createMemoryReplayStore();
    let renewals = 0;
    // The first caller marks the key as being sent, then its renewals stop reaching the store.
    const store = { ...inner, sending: (key: string, token: string, leaseMs: number, ttlMs: number) => (renewals++ === 0 ? inner.sending(key, token, leaseMs, ttlMs) : true) };
    const phone = freshPhone();
    servers.emulator.emulator.faults.add({ type: 'latency', ms: 1500, path: '/v1/messaging' });
    const first = sms(client({ store, leaseMs: 150 }), phone, 'died-1');
    await new Promise((r) => setTimeout(r, 400)); // past its lease, and no renewal arrived
    const other = client({ store, leaseMs: 150, waitMs: 10_000 });
    const error = await failure(sms(other, phone, 'died-1'));
    expect(error).toBeInstanceOf(IdempotencyError);
    expect((error as IdempotencyError).code).toBe('idempotency_unknown');
    expect((error as IdempotencyError).sent).toBe('unknown');
    expect((error as IdempotencyError).operation).toBe('POST /v1/messaging');
    expect((error as Error).message).toContain('confirmNotSent: true');
    await first; // the "dead" sender's request did go out: exactly one SMS, never a second
    expect(sent(phone)).toBe(1);
  });

  it('a live sender renews its lease: another call waits and gets its answer', async () => {
    const c = client({ leaseMs: 150 });
    const phone = freshPhone();
    servers.emulator.emulator.faults.add({ type: 'latency', ms: 700, path: '/v1/messaging' });
    const first = sms(c, phone, 'live-1');
    await new Promise((r) => setTimeout(r, 50));
    const second = await sms(c, phone, 'live-1'); // 700 ms is several leases: renewed all along
    expect(second.data.reference_id).toBe((await first).data.reference_id);
    expect(sent(phone)).toBe(1);
  });

  it('inspect tells a key\'s state without secrets; release needs confirmNotSent and refuses a key that went out', async () => {
    const idempotency = createIdempotency();
    const c = client(false, { idempotency });
    const phone = freshPhone();
    expect(await idempotency.inspect('rec-1', scope)).toBeUndefined();
    const { data } = await sms(c, phone, 'rec-1');
    const state = await idempotency.inspect('rec-1', scope);
    expect(state).toMatchObject({ state: 'answered', status: 200, referenceId: data.reference_id });
    expect(state!.expiresAt).toBeGreaterThan(Date.now() + 23 * 3_600_000);
    expect(JSON.stringify(state)).not.toContain(phone);
    const unconfirmed = await failure(idempotency.release('rec-1', scope as never));
    expect(unconfirmed).toBeInstanceOf(ConfigurationError);
    expect((unconfirmed as Error).message).toContain('confirmNotSent: true');
    const answered = await failure(idempotency.release('rec-1', { ...scope, confirmNotSent: true }));
    expect((answered as Error).message).toContain('it went out');
    await expect(idempotency.inspect('rec-1', undefined as never)).rejects.toThrow(ConfigurationError);
  });

  it('a stalled key is reported by inspect, and once released (confirmed not sent) the same key sends', async () => {
    const inner = createMemoryReplayStore();
    const idempotency = createIdempotency({ store: inner, leaseMs: 150 });
    // A sender that marked the key and died before its request left (nothing reached the service).
    const begun = inner.begin(`idempotency:${scope.customerId}:${scope.operation}:stalled-1`, 150) as { token: string };
    inner.sending(`idempotency:${scope.customerId}:${scope.operation}:stalled-1`, begun.token, 150, 86_400_000);
    await new Promise((r) => setTimeout(r, 200));
    const state = await idempotency.inspect('stalled-1', scope);
    expect(state).toMatchObject({ state: 'stalled' });
    expect(state!.leaseUntil).toBeLessThanOrEqual(Date.now());
    const phone = freshPhone();
    const c = client(false, { idempotency });
    expect(((await failure(sms(c, phone, 'stalled-1'))) as IdempotencyError).code).toBe('idempotency_unknown');
    expect(await idempotency.release('stalled-1', { ...scope, confirmNotSent: true })).toBe(true);
    await sms(c, phone, 'stalled-1');
    expect(sent(phone)).toBe(1);
  });
});

describe('idempotencyKey against scripted answers', () => {
  const recorded = (idempotency: IdempotencyOptions = {}) =>
    createClient({ ...DEFAULT_CUSTOMER, baseUrl: servers.recorder.url, retry: false, idempotency: createIdempotency(idempotency) });

  it('a 5xx keeps the key held and names the reference id to look up', async () => {
    const c = recorded();
    servers.recorder.script({ status: 503, body: { reference_id: 'ABCDEF0123456789ABCDEF0123456789', status: { code: 500, description: 'unavailable' } } });
    const error = await failure(sms(c, PHONE, 'r-1'));
    expect(error).toBeInstanceOf(IdempotencyError);
    expect((error as IdempotencyError).referenceId).toBe('ABCDEF0123456789ABCDEF0123456789');
    expect((error as Error).message).toContain('reference id ABCDEF0123456789ABCDEF0123456789');
    const again = await failure(sms(c, PHONE, 'r-1'));
    expect((again as IdempotencyError).referenceId).toBe('ABCDEF0123456789ABCDEF0123456789');
    expect(servers.recorder.requests).toHaveLength(1);
  });

  it('a server that takes the request and drops the connection: the key stays held, one request', async () => {
    const c = recorded();
    servers.recorder.script('reset');
    const error = await failure(sms(c, PHONE, 'r-2'));
    expect(error).toBeInstanceOf(IdempotencyError);
    expect((error as IdempotencyError).code).toBe('idempotency_unknown');
    expect(((error as IdempotencyError).cause as NetworkError).sent).toBe('unknown');
    expect((error as IdempotencyError).referenceId).toBeUndefined();
    expect(await failure(sms(c, PHONE, 'r-2'))).toBeInstanceOf(IdempotencyError);
    expect(servers.recorder.requests).toHaveLength(1);
  });

  it('a key on a code check (not a send) is refused: a check never answers from a stored verdict', async () => {
    const c = recorded();
    const error = await failure(c.verify.check('0123456789ABCDEF0123456789ABCDEF', '1234', { idempotencyKey: 'k' } as never));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).toContain('not to GET /v1/verify/');
    expect(servers.recorder.requests).toHaveLength(0);
  });

  it('the stored answer holds no verification code in clear', async () => {
    const store = createMemoryReplayStore();
    const c = recorded({ store });
    servers.recorder.script({ status: 200, body: { reference_id: 'R1', status: { code: 290 }, verify: { code_state: 'UNKNOWN', code_entered: '918273' } } });
    const first = await c.verify.sms({ phoneNumber: PHONE, verifyCode: '918273' }, { idempotencyKey: 'code-1' });
    const second = await c.verify.sms({ phoneNumber: PHONE, verifyCode: '918273' }, { idempotencyKey: 'code-1' });
    expect(servers.recorder.requests).toHaveLength(1);
    expect(first.data.verify?.code_entered).toBe('918273'); // the caller that sent gets the answer as it came
    expect(JSON.stringify(second.data)).not.toContain('918273');
    const kept = store.begin(`idempotency:${DEFAULT_CUSTOMER.customerId}:POST /v1/verify/sms:code-1`, 1);
    expect(kept.state).toBe('done');
    expect(JSON.stringify(kept)).not.toContain('918273');
  });

  it('the stored fingerprint is keyed: another API key gives another, and no record holds the code or an unkeyed digest of the parameters', async () => {
    const records: string[] = [];
    const capture = () => {
      const inner = createMemoryReplayStore();
      return { ...inner, complete: (key: string, token: string, ttlMs: number, value?: string) => (records.push(value ?? ''), inner.complete(key, token, ttlMs, value)) };
    };
    const other = { customerId: DEFAULT_CUSTOMER.customerId, apiKey: Buffer.from('another key of 32 bytes.........').toString('base64') };
    for (const credentials of [DEFAULT_CUSTOMER, other]) {
      servers.recorder.script({ status: 200, body: { reference_id: 'R1', status: { code: 290 } } });
      const c = createClient({ ...credentials, baseUrl: servers.recorder.url, retry: false, idempotency: createIdempotency({ store: capture() }) });
      await c.verify.sms({ phoneNumber: PHONE, verifyCode: '918273' }, { idempotencyKey: 'keyed-1' });
    }
    expect(records).toHaveLength(2);
    const [a, b] = records.map((r) => (JSON.parse(r) as { f: string }).f);
    expect(a).not.toBe(b);
    for (const record of records) {
      expect(record).not.toContain('918273');
      expect(record).not.toMatch(/[0-9a-f]{64}/); // no plain SHA-256 of anything
    }
  });

  it('property: any sequence of calls over a few keys sends once per key and answers each call with its key send', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { minLength: 1, maxLength: 12 }), fc.boolean(), async (keys, together) => {
        servers.recorder.reset();
        let n = 0;
        servers.recorder.script(...keys.map(() => ({ status: 200, body: { reference_id: `REF${n++}`, status: { code: 290 } } })));
        const c = recorded();
        const call = (key: string) => sms(c, PHONE, key).then((a) => [key, a.data.reference_id] as const);
        const answers = together ? await Promise.all(keys.map(call)) : await keys.reduce(async (all, key) => [...(await all), await call(key)], Promise.resolve([] as (readonly [string, string])[]));
        const distinct = new Set(keys);
        expect(servers.recorder.requests).toHaveLength(distinct.size);
        for (const key of distinct) expect(new Set(answers.filter(([k]) => k === key).map(([, ref]) => ref)).size).toBe(1);
        expect(new Set(answers.map(([, ref]) => ref)).size).toBe(distinct.size);
      }),
      { numRuns: 25 },
    );
  });
});

import { signRequest, verifyRequest } from '@x/auth';
import { createClient } from '@x/client';
import { DEFAULT_CUSTOMER } from '@x/emulator';
import { startEmulator } from '@x/emulator/node';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createRedisReplayStore } from '../src/index.js';

const port = inject('redisPort');
const connections: Redis[] = [];
const connection = () => {
  const redis = new Redis({ port, host: '127.0.0.1', lazyConnect: false });
  connections.push(redis);
  return redis;
};
afterAll(async () => {
  await Promise.all(connections.map((c) => c.quit().catch(() => c.disconnect())));
});
const unique = () => `k-${Math.random().toString(36).slice(2)}`;

describe('createRedisReplayStore against a real redis-server', () => {
  it('claims a key once', async () => {
    const store = createRedisReplayStore({ client: connection() });
    const key = unique();
    expect(await store.claim(key, 60_000)).toBe(true);
    expect(await store.claim(key, 60_000)).toBe(false);
  });

  it('sets the ttl on the key (PX) and frees it after expiry', async () => {
    const redis = connection();
    const store = createRedisReplayStore({ client: redis, prefix: 'ttl:' });
    const key = unique();
    await store.claim(key, 60_000);
    const ttl = await redis.pttl(`ttl:${key}`);
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
    const short = unique();
    await store.claim(short, 30);
    await new Promise((r) => setTimeout(r, 200));
    expect(await store.claim(short, 30)).toBe(true);
  });

  it('exactly one of many concurrent claims from two connections wins', async () => {
    const a = createRedisReplayStore({ client: connection() });
    const b = createRedisReplayStore({ client: connection() });
    const key = unique();
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? a : b).claim(key, 60_000)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('prefixes keep stores apart', async () => {
    const client = connection();
    const key = unique();
    expect(await createRedisReplayStore({ client, prefix: 'one:' }).claim(key, 60_000)).toBe(true);
    expect(await createRedisReplayStore({ client, prefix: 'two:' }).claim(key, 60_000)).toBe(true);
  });

  it('fails closed when Redis is unreachable: verification rejects, it never says fresh', async () => {
    const down = new Redis({ port: 1, host: '127.0.0.1', lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null });
    connections.push(down);
    down.on('error', () => {}); // expected: nothing listens there
    const store = createRedisReplayStore({ client: down });
    await expect(store.claim('x', 1000)).rejects.toThrow();
    const url = '/v1/messaging';
    const { headers } = signRequest({ method: 'GET', url }, DEFAULT_CUSTOMER);
    await expect(verifyRequest({ method: 'GET', url, headers }, { credentials: () => DEFAULT_CUSTOMER, replayStore: store })).rejects.toThrow();
  });

  it('rejects a bad client with a clear error', () => {
    expect(() => createRedisReplayStore({ client: {} as never })).toThrow(/ioredis/);
  });
});

describe('createRedisReplayStore as a delivery store (callbacks exactly once)', () => {
  const day = 86_400_000;
  const started = (begun: { state: string; token?: string }) => {
    expect(begun.state).toBe('started');
    return begun.token!;
  };

  it('in progress while it runs, done after complete', async () => {
    const store = createRedisReplayStore({ client: connection() });
    const key = unique();
    const token = started(await store.begin(key, 60_000));
    expect(await store.begin(key, 60_000)).toEqual({ state: 'in_progress' });
    expect(await store.complete(key, token, day)).toBe(true);
    expect(await store.begin(key, 60_000)).toEqual({ state: 'done' });
  });

  it('keeps the value complete() records, shared by every process, and returns it from begin', async () => {
    const redis = connection();
    const store = createRedisReplayStore({ client: redis, prefix: 'dv:' });
    const other = createRedisReplayStore({ client: connection(), prefix: 'dv:' });
    const key = unique();
    const token = started(await store.begin(key, 60_000));
    expect(await store.complete(key, token, day, '{"ref":"A","p:":1}')).toBe(true);
    expect(await other.begin(key, 60_000)).toEqual({ state: 'done', value: '{"ref":"A","p:":1}' });
    expect(await redis.pttl(`dv:${key}`)).toBeGreaterThan(day - 60_000);
  });

  it('abandon releases the mark for the next delivery; the done mark carries the ttl', async () => {
    const redis = connection();
    const store = createRedisReplayStore({ client: redis, prefix: 'dl:' });
    const key = unique();
    const first = started(await store.begin(key, 60_000));
    expect(await redis.get(`dl:${key}`)).toContain(first); // the owner's token is the in-progress value
    expect(await store.abandon(key, first)).toBe(true);
    const second = started(await store.begin(key, 60_000));
    expect(second).not.toBe(first);
    await store.complete(key, second, day);
    const ttl = await redis.pttl(`dl:${key}`);
    expect(ttl).toBeGreaterThan(day - 60_000);
    expect(ttl).toBeLessThanOrEqual(day);
  });

  it('a lease expires (a process that died mid-handler), and a stale owner cannot touch the new mark', async () => {
    const store = createRedisReplayStore({ client: connection() });
    const key = unique();
    const stale = started(await store.begin(key, 50));
    await new Promise((r) => setTimeout(r, 150));
    const current = started(await store.begin(key, 60_000));
    expect(await store.abandon(key, stale)).toBe(false);
    expect(await store.begin(key, 60_000)).toEqual({ state: 'in_progress' });
    expect(await store.complete(key, current, day)).toBe(true);
    expect(await store.begin(key, 60_000)).toEqual({ state: 'done' });
  });

  it('a success is recorded whoever holds the lease (done wins over a later release); complete says the lease was lost', async () => {
    const store = createRedisReplayStore({ client: connection() });
    const key = unique();
    const slow = started(await store.begin(key, 50));
    await new Promise((r) => setTimeout(r, 150)); // the slow handler outlived its lease; a copy took over
    const copy = started(await store.begin(key, 60_000));
    expect(await store.complete(key, slow, day)).toBe(false); // lost the lease, recorded all the same
    expect(await store.begin(key, 60_000)).toEqual({ state: 'done' });
    expect(await store.abandon(key, copy)).toBe(false); // the copy failed: the success stays
    expect(await store.begin(key, 60_000)).toEqual({ state: 'done' });
    expect(await store.complete(key, copy, day)).toBe(true); // done already: nothing lost
    expect(await store.begin(key, 60_000)).toEqual({ state: 'done' });
  });

  it('a late success is recorded when nobody else holds the mark', async () => {
    const store = createRedisReplayStore({ client: connection() });
    const key = unique();
    const slow = started(await store.begin(key, 50));
    await new Promise((r) => setTimeout(r, 150));
    expect(await store.complete(key, slow, day)).toBe(true);
    expect(await store.begin(key, 60_000)).toEqual({ state: 'done' });
  });

  it('exactly one of many concurrent begins from two connections starts', async () => {
    const a = createRedisReplayStore({ client: connection() });
    const b = createRedisReplayStore({ client: connection() });
    const key = unique();
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? a : b).begin(key, 60_000)));
    expect(results.filter((r) => r.state === 'started')).toHaveLength(1);
    expect(results.filter((r) => r.state === 'in_progress')).toHaveLength(49);
  });

  it('fails closed when Redis is unreachable', async () => {
    const down = new Redis({ port: 1, host: '127.0.0.1', lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null });
    connections.push(down);
    down.on('error', () => {});
    await expect(createRedisReplayStore({ client: down }).begin('x', 1000)).rejects.toThrow();
  });
});

describe('createRedisReplayStore: two-phase sends (reserved, then sending), on a real redis-server', () => {
  const day = 86_400_000;
  const started = async (store: ReturnType<typeof createRedisReplayStore>, key: string, leaseMs: number) => {
    const begun = await store.begin(key, leaseMs);
    expect(begun.state).toBe('started');
    return (begun as { token: string }).token;
  };

  it('a reservation that never reached sending is free after its short lease', async () => {
    const store = createRedisReplayStore({ client: connection(), prefix: 'tp:' });
    const key = unique();
    await started(store, key, 100);
    expect(await store.begin(key, 100)).toEqual({ state: 'in_progress' });
    expect(await store.inspect(key)).toMatchObject({ state: 'reserved' });
    await new Promise((r) => setTimeout(r, 200));
    expect((await store.begin(key, 100)).state).toBe('started');
  });

  it('a begin resent with its token (its reply was lost, the client sent it again) is the same begin: started, not in progress', async () => {
    const redis = connection();
    // A client that runs every script twice, as ioredis does when it resends a command whose reply
    // was lost with its connection (autoResendUnfulfilledCommands): the second reply is the one seen.
    const resending = new Proxy(redis, {
      get(target, name) {
        if (name === 'eval') return async (...args: Parameters<Redis['eval']>) => (await target.eval(...args), target.eval(...args));
        const value = Reflect.get(target, name, target) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const store = createRedisReplayStore({ client: resending, prefix: 'tp:' });
    const key = unique();
    const token = await started(store, key, 60_000);
    expect(await store.sending(key, token, 60_000, day)).toBe(true);
  });

  it('sending holds the key for the ttl; renewals keep it sending; without them it is stalled, never free', async () => {
    const redis = connection();
    const store = createRedisReplayStore({ client: redis, prefix: 'tp:' });
    const other = createRedisReplayStore({ client: connection(), prefix: 'tp:' });
    const key = unique();
    const token = await started(store, key, 200);
    expect(await store.sending(key, token, 200, day)).toBe(true);
    expect(await redis.pttl(`tp:${key}`)).toBeGreaterThan(day - 60_000);
    expect(await other.begin(key, 200)).toEqual({ state: 'in_progress', phase: 'sending' });
    for (let i = 0; i < 4; i++) {
      await new Promise((r) => setTimeout(r, 100));
      expect(await store.sending(key, token, 200, day)).toBe(true); // renewed before the lease ends
      expect(await other.begin(key, 200)).toEqual({ state: 'in_progress', phase: 'sending' });
    }
    const seen = await other.inspect(key);
    expect(seen).toMatchObject({ state: 'sending' });
    expect(seen!.leaseUntil! - seen!.sendingSince!).toBeGreaterThanOrEqual(400);
    await new Promise((r) => setTimeout(r, 300)); // the holder stopped renewing
    expect(await other.begin(key, 200)).toEqual({ state: 'in_progress', phase: 'stalled' });
    expect(await other.inspect(key)).toMatchObject({ state: 'stalled' });
    expect(await redis.pttl(`tp:${key}`)).toBeGreaterThan(day - 60_000); // still held: never sent twice
    expect(await other.sending(key, 'p:someone-else', 200, day)).toBe(false);
  });

  it('complete settles a sending key; abandon frees it for its holder only; release forgets any key', async () => {
    const store = createRedisReplayStore({ client: connection(), prefix: 'tp:' });
    const key = unique();
    const token = await started(store, key, 60_000);
    await store.sending(key, token, 60_000, day);
    expect(await store.abandon(key, 'p:other')).toBe(false);
    expect(await store.abandon(key, token)).toBe(true);
    const next = await started(store, key, 60_000);
    expect(await store.sending(key, token, 60_000, day)).toBe(false); // the old token holds nothing
    await store.sending(key, next, 60_000, day);
    expect(await store.complete(key, 'p:other', day, '{"r":1}')).toBe(false); // recorded, and says the lease was another's
    expect(await store.begin(key, 60_000)).toEqual({ state: 'done', value: '{"r":1}' });
    expect(await store.inspect(key)).toMatchObject({ state: 'done', value: '{"r":1}' });
    expect(await store.release(key)).toBe(true);
    expect(await store.inspect(key)).toBeUndefined();
    expect(await store.release(key)).toBe(false);
  });
});

describe('two emulator processes behind one Redis', () => {
  it('a request replayed to the other instance is refused (10002)', async () => {
    const replayStore = createRedisReplayStore({ client: connection(), prefix: `emu-${unique()}:` });
    const [one, two] = await Promise.all([startEmulator({ replayStore }), startEmulator({ replayStore })]);
    try {
      const body = 'phone_number=15555550600&message=x&message_type=ARN';
      const { headers } = signRequest({ method: 'POST', url: '/v1/messaging', contentType: 'application/x-www-form-urlencoded', body }, DEFAULT_CUSTOMER);
      const first = await fetch(`${one.url}/v1/messaging`, { method: 'POST', headers, body });
      expect(first.status).toBe(200);
      const replayed = await fetch(`${two.url}/v1/messaging`, { method: 'POST', headers, body });
      expect(replayed.status).toBe(401);
      expect((await replayed.json()).status.code).toBe(10002);
      // A normal client, fresh nonce per request, works against both.
      for (const server of [one, two]) {
        const client = createClient({ ...DEFAULT_CUSTOMER, baseUrl: server.url });
        expect((await client.voice.call({ phoneNumber: '15555550601', message: 'x', messageType: 'ARN' })).status).toBe(200);
      }
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });
});

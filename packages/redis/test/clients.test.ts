// Stores refuse at creation a client they cannot drive. node-redis (the `redis` package) takes its
// command options in another form: given to today's scripts and SET ... NX it was accepted and then
// silently wrong (a nonce claimed twice, no expiry). Here a real node-redis client, connected to the
// real redis-server of the suite, is refused by every store, with an error naming the supported
// clients; an ioredis client is accepted and works.
import { XError } from '@x/auth';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createRedisReplayStore, createRedisStateStore } from '../src/index.js';

const port = inject('redisPort');
const nodeRedis = createClient({ url: `redis://127.0.0.1:${port}` });
const ioredis = new Redis({ port, host: '127.0.0.1' });
beforeAll(async () => {
  await nodeRedis.connect();
});
afterAll(async () => {
  await nodeRedis.close();
  ioredis.disconnect();
});

const thrown = (create: () => unknown) => {
  try {
    create();
  } catch (error) {
    return error;
  }
  return undefined;
};

const stores = {
  createRedisReplayStore: (client: unknown) => createRedisReplayStore({ client: client as never }),
  createRedisStateStore: (client: unknown) => createRedisStateStore({ client: client as never }),
};

describe('a node-redis client (the redis package), connected to a real redis-server', () => {
  it('answers the commands the stores would send without an error: the reason it must be refused up front', async () => {
    // Positional options are ignored by node-redis: the key is written with no expiry, and a second
    // "SET ... NX" overwrites it. A store that accepted this client claimed a nonce twice.
    const key = `shape:${Math.random().toString(36).slice(2)}`;
    const set = nodeRedis.set as unknown as (...args: unknown[]) => Promise<unknown>;
    expect(await set.call(nodeRedis, key, '1', 'PX', 60_000, 'NX')).toBe('OK');
    expect(await set.call(nodeRedis, key, '1', 'PX', 60_000, 'NX')).toBe('OK');
    expect(await nodeRedis.pTTL(key)).toBe(-1);
  });

  for (const [name, create] of Object.entries(stores)) {
    it(`${name} refuses it at creation: XError unsupported_client, naming the supported clients`, () => {
      const error = thrown(() => create(nodeRedis));
      expect(error).toBeInstanceOf(XError);
      expect(error).toMatchObject({ code: 'unsupported_client' });
      const message = (error as Error).message;
      expect(message).toContain('node-redis');
      expect(message).toContain('ioredis 5 or 6');
      expect(message).toContain('iovalkey');
      expect(message).toContain('planned');
    });

    it(`${name} refuses a hand-made object with set, get and eval: its arguments cannot be checked`, () => {
      const lookalike = { set: async () => 'OK', get: async () => null, eval: async () => 'started' };
      const error = thrown(() => create(lookalike));
      expect(error).toMatchObject({ code: 'unsupported_client' });
      expect((error as Error).message).toContain('ioredis 5 or 6');
    });

    it(`${name} takes an ioredis client`, () => {
      expect(thrown(() => create(ioredis))).toBeUndefined();
    });
  }

  it('an ioredis client claims a nonce once, with its expiry', async () => {
    const store = createRedisReplayStore({ client: ioredis, prefix: 'shape:' });
    const key = Math.random().toString(36).slice(2);
    expect(await store.claim(key, 60_000)).toBe(true);
    expect(await store.claim(key, 60_000)).toBe(false);
    expect(await ioredis.pttl(`shape:${key}`)).toBeGreaterThan(0);
  });
});

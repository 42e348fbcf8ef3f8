// Stores recognise the client at creation (ioredis 5/6, iovalkey, node-redis 5/6, valkey-glide 2)
// and drive each in its own form; anything else is refused, naming the supported clients. node-redis
// ignores positional options without an error (a SET ... PX ... NX in ioredis's form is a plain SET
// there): the reason every command goes through the one seam, never a client's SET in someone
// else's spelling.
import { XError } from '@x/auth';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createRedisReplayStore, createRedisStateStore, redisScripts } from '../src/index.js';
import { connectors, type Connected } from './support/clients.js';

const port = inject('redisPort');
const nodeRedis = createClient({ url: `redis://127.0.0.1:${port}` });
const open: Connected[] = [];
beforeAll(async () => {
  await nodeRedis.connect();
});
afterAll(async () => {
  await nodeRedis.close();
  await Promise.all(open.map((c) => c.close()));
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

describe('which clients the stores take', () => {
  it('node-redis ignores positional SET options without an error: why no store sends a command in another client\'s form', async () => {
    const key = `shape:${Math.random().toString(36).slice(2)}`;
    const set = nodeRedis.set as unknown as (...args: unknown[]) => Promise<unknown>;
    expect(await set.call(nodeRedis, key, '1', 'PX', 60_000, 'NX')).toBe('OK');
    expect(await set.call(nodeRedis, key, '1', 'PX', 60_000, 'NX')).toBe('OK');
    expect(await nodeRedis.pTTL(key)).toBe(-1);
  });

  for (const connector of connectors) {
    it(`${connector.name}: recognised, and a nonce is claimed once with its expiry`, async () => {
      const connected = await connector.single(port);
      open.push(connected);
      const family = redisScripts(connected.client).family;
      expect(family).toBe(connector.name.startsWith('node-redis') ? 'node-redis' : connector.name.startsWith('valkey') ? 'valkey-glide' : 'ioredis');
      const store = createRedisReplayStore({ client: connected.client as never, prefix: 'shape:' });
      const key = Math.random().toString(36).slice(2);
      expect(await store.claim(key, 60_000)).toBe(true);
      expect(await store.claim(key, 60_000)).toBe(false);
      expect(await nodeRedis.pTTL(`shape:${key}`)).toBeGreaterThan(0);
    });
  }

  for (const [name, create] of Object.entries(stores)) {
    it(`${name} refuses a hand-made object with set, get and eval: XError unsupported_client naming the supported clients`, () => {
      const lookalike = { set: async () => 'OK', get: async () => null, eval: async () => 'started' };
      const error = thrown(() => create(lookalike));
      expect(error).toBeInstanceOf(XError);
      expect(error).toMatchObject({ code: 'unsupported_client' });
      for (const client of ['ioredis 5 or 6', 'iovalkey', 'node-redis 5 or 6', 'valkey-glide 2']) expect((error as Error).message).toContain(client);
    });

    it(`${name} refuses no client with invalid_options`, () => {
      expect(thrown(() => create(undefined))).toMatchObject({ code: 'invalid_options' });
    });
  }
});

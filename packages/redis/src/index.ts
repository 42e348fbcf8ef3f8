import type { ReplayStore } from '@x/auth';

/** The one command the store needs, as ioredis (5, 6) spells it. */
export interface RedisSetNx {
  set(key: string, value: string, px: 'PX', milliseconds: number, nx: 'NX'): Promise<'OK' | null | string>;
}

export interface RedisReplayStoreOptions {
  /** An ioredis client (or anything with its `set(key, value, 'PX', ms, 'NX')`). */
  client: RedisSetNx;
  /** Prefix of every key. Default `x:replay:`. */
  prefix?: string;
}

/**
 * A replay store shared by every process that uses the same Redis: a nonce claimed by one
 * verifier is refused by all others. One atomic `SET key 1 PX ttl NX` per claim.
 *
 * When Redis cannot be reached, `claim` rejects and verification fails closed (the error
 * propagates); it never answers "fresh" without Redis having said so.
 */
export function createRedisReplayStore(options: RedisReplayStoreOptions): ReplayStore {
  const { client } = options;
  if (!client || typeof client.set !== 'function') {
    throw new TypeError('createRedisReplayStore needs { client }: an ioredis client, e.g. new Redis(process.env.REDIS_URL).');
  }
  const prefix = options.prefix ?? 'x:replay:';
  return {
    async claim(key, ttlMs) {
      const ms = Math.max(1, Math.ceil(ttlMs));
      return (await client.set(prefix + key, '1', 'PX', ms, 'NX')) === 'OK';
    },
  };
}

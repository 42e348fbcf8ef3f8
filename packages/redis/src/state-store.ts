import { redisScripts, type RedisClient } from './scripts.js';

/**
 * The ioredis shape the state store took before.
 *
 * @deprecated The state store takes any {@link RedisClient}.
 */
export interface RedisStateCommands {
  /** ioredis's `GET`. */
  get(key: string): Promise<string | null>;
  /** ioredis's positional `EVAL`. */
  eval(script: string, numKeys: number, ...args: Array<string | number>): Promise<unknown>;
}

/** Options of {@link createRedisStateStore}. */
export interface RedisStateStoreOptions {
  /** A supported client ({@link RedisClient}): ioredis 5 or 6, iovalkey, node-redis 5 or 6, valkey-glide 2, single or Cluster. Any other object is refused at creation (`XError('unsupported_client')`). */
  client: RedisClient;
  /** Prefix of every key. Default `x:state:`. */
  prefix?: string | undefined;
}

// Compare-and-set in one script: write ARGV[2] only if the key still holds ARGV[1] (ARGV[3] = 1
// when the caller expects no key). Redis runs a script without interleaving.
const COMPARE_AND_SET = `local v = redis.call('GET', KEYS[1])
if (ARGV[3] == '1' and v) or (ARGV[3] == '0' and v ~= ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[4])
return 1`;
const GET = `return redis.call('GET', KEYS[1])`;

/** The router's state store (`createRouter({ store })` of `@x/webhooks/router`). */
export interface RedisStateStore {
  /** A message's state, or null. */
  get(key: string): Promise<string | null>;
  /** Writes `next` for `ttlMs` only if the key still holds `expected` (null: no key); false when another process changed it. */
  compareAndSet(key: string, expected: string | null, next: string, ttlMs: number): Promise<boolean>;
}

/**
 * The state store of `createRouter` (`@x/webhooks/router`) in Redis, shared by every process:
 * `get` reads a message's state, `compareAndSet` writes the next one in one Lua script only if
 * no other process changed it meanwhile (the router then reads again and re-applies its rule).
 *
 * @example
 * ```ts
 * import { Redis } from 'ioredis';
 * import { createRouter } from '@x/webhooks/router';
 * import { createRedisStateStore } from '@x/redis';
 *
 * const router = createRouter({ store: createRedisStateStore({ client: new Redis('redis://127.0.0.1:6379') }) })
 *   .on('sms.delivered', (sms) => db.saveStatus(sms.reference_id, 'delivered'));
 * ```
 */
export function createRedisStateStore(options: RedisStateStoreOptions): RedisStateStore {
  const redis = redisScripts(options?.client, 'createRedisStateStore');
  const prefix = options.prefix ?? 'x:state:';
  // One key per operation: any key works on a Cluster.
  return {
    async get(key) {
      const value = await redis.eval(GET, [prefix + key], []);
      return value === null || value === undefined ? null : String(value);
    },
    async compareAndSet(key, expected, next, ttlMs) {
      const none = expected === null;
      return Number(await redis.eval(COMPARE_AND_SET, [prefix + key], [none ? '' : expected, next, none ? '1' : '0', Math.max(1, Math.ceil(ttlMs))])) === 1;
    },
  };
}

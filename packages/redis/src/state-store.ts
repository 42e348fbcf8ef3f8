import { checkClient } from './supported-client.js';

/** The two commands the state store needs, as ioredis (5, 6) spells them. */
export interface RedisStateCommands {
  get(key: string): Promise<string | null>;
  eval(script: string, numKeys: number, ...args: Array<string | number>): Promise<unknown>;
}

export interface RedisStateStoreOptions {
  /** An ioredis 5 or 6 client (`Redis` or `Cluster`), or iovalkey's. Any other client (node-redis, a hand-made object) is refused at creation (`XError('unsupported_client')`). */
  client: RedisStateCommands;
  /** Prefix of every key. Default `x:state:`. */
  prefix?: string | undefined;
}

// Compare-and-set in one script: write ARGV[2] only if the key still holds ARGV[1] (ARGV[3] = 1
// when the caller expects no key). Redis runs a script without interleaving.
const COMPARE_AND_SET = `local v = redis.call('GET', KEYS[1])
if (ARGV[3] == '1' and v) or (ARGV[3] == '0' and v ~= ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[4])
return 1`;

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
export function createRedisStateStore(options: RedisStateStoreOptions): {
  get(key: string): Promise<string | null>;
  compareAndSet(key: string, expected: string | null, next: string, ttlMs: number): Promise<boolean>;
} {
  const { client } = options ?? ({} as Partial<RedisStateStoreOptions>);
  checkClient(client, 'createRedisStateStore', ['get', 'eval']);
  const prefix = options.prefix ?? 'x:state:';
  return {
    get: (key) => client.get(prefix + key),
    async compareAndSet(key, expected, next, ttlMs) {
      const none = expected === null;
      return (await client.eval(COMPARE_AND_SET, 1, prefix + key, none ? '' : expected, next, none ? '1' : '0', Math.max(1, Math.ceil(ttlMs)))) === 1;
    },
  };
}

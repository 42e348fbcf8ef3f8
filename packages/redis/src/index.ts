/**
 * A Redis replay and delivery store, for verification spread over several processes.
 *
 * @packageDocumentation
 * @module @x/redis
 */
import type { DeliveryBegin, DeliveryStore, ReplayStore } from '@x/auth';
import { checkClient } from './supported-client.js';

/** The two commands the store needs, as ioredis (5, 6) spells them. */
export interface RedisCommands {
  set(key: string, value: string, px: 'PX', milliseconds: number, nx: 'NX'): Promise<'OK' | null | string>;
  eval(script: string, numKeys: number, ...args: Array<string | number>): Promise<unknown>;
}

/** @deprecated The store also needs `eval` now; use `RedisCommands`. */
export type RedisSetNx = RedisCommands;

export interface RedisReplayStoreOptions {
  /** An ioredis client (or anything with its `set(key, value, 'PX', ms, 'NX')` and `eval(script, numKeys, ...args)`). */
  client: RedisCommands;
  /** Prefix of every key. Default `x:replay:`. */
  prefix?: string | undefined;
}

// Values of a delivery key: the owner's token while in progress, DONE after a success, VALUE and the
// value `complete` was given after a success that records one. Any other value (e.g. '1', written
// by `claim` in earlier versions) counts as done.
const DONE = 'done';
const OWNER = 'p:';
const VALUE = 'v:';

// Each script reads and writes one key atomically (Redis runs a script without interleaving).
const BEGIN = `local v = redis.call('GET', KEYS[1])
if not v then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 'started' end
if string.sub(v, 1, 2) == '${OWNER}' then return 'in_progress' end
return v`;
// Done wins whoever holds the mark; 0 says another delivery had taken over the lease.
const COMPLETE = `local v = redis.call('GET', KEYS[1])
redis.call('SET', KEYS[1], ARGV[3] or '${DONE}', 'PX', ARGV[2])
if v and v ~= ARGV[1] and string.sub(v, 1, 2) == '${OWNER}' then return 0 end
return 1`;
const ABANDON = `if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) return 1 end
return 0`;

const randomToken = () => OWNER + crypto.randomUUID();
const ms = (value: number) => Math.max(1, Math.ceil(value));

/**
 * A replay and delivery store shared by every process that uses the same Redis.
 *
 * - `claim` (nonces): one atomic `SET key 1 PX ttl NX`; a nonce claimed by one verifier is refused
 *   by all others.
 * - `begin` / `complete` / `abandon` (callbacks, exactly once): one Lua script each. The
 *   in-progress value is a random token of the process that began the delivery, so `abandon`
 *   only removes the mark that process owns; `complete` records the success whoever holds the
 *   mark (false when another process had taken over the lease), with the value it is given (a
 *   send's stored result for `@x/client/idempotency`), which `begin` then returns; the mark
 *   expires after the lease.
 *
 * When Redis cannot be reached, every call rejects and verification fails closed (the error
 * propagates); it never answers "fresh" without Redis having said so.
 *
 * @example
 * ```ts
 * import { Redis } from 'ioredis';
 * import { verifyCallback } from '@x/webhooks';
 * import { createRedisReplayStore } from '@x/redis';
 *
 * const replayStore = createRedisReplayStore({ client: new Redis('redis://127.0.0.1:6379'), prefix: 'myapp:' });
 * async function receive(body: Uint8Array, headers: Record<string, string>) {
 *   return verifyCallback({ body, headers }, { customerId, apiKey, replayStore }); // every process shares the marks
 * }
 * ```
 */
export function createRedisReplayStore(options: RedisReplayStoreOptions): ReplayStore & DeliveryStore {
  const { client } = options ?? ({} as Partial<RedisReplayStoreOptions>);
  checkClient(client, 'createRedisReplayStore', ['set', 'eval']);
  const prefix = options.prefix ?? 'x:replay:';
  return {
    async claim(key, ttlMs) {
      return (await client.set(prefix + key, '1', 'PX', ms(ttlMs), 'NX')) === 'OK';
    },
    async begin(key, leaseMs): Promise<DeliveryBegin> {
      const token = randomToken();
      const state = await client.eval(BEGIN, 1, prefix + key, token, ms(leaseMs));
      if (state === 'started') return { state, token };
      if (state === 'in_progress') return { state };
      return typeof state === 'string' && state.startsWith(VALUE) ? { state: 'done', value: state.slice(VALUE.length) } : { state: 'done' };
    },
    async complete(key, token, ttlMs, value) {
      const args = value === undefined ? [] : [VALUE + value];
      return (await client.eval(COMPLETE, 1, prefix + key, token, ms(ttlMs), ...args)) === 1;
    },
    async abandon(key, token) {
      return (await client.eval(ABANDON, 1, prefix + key, token)) === 1;
    },
  };
}

export { createRedisStateStore } from './state-store.js';
export type { RedisStateCommands, RedisStateStoreOptions } from './state-store.js';

/**
 * A Redis replay and delivery store, for verification spread over several processes.
 *
 * @packageDocumentation
 * @module @x/redis
 */
import type { DeliveryBegin, DeliveryState, DeliveryStore, ReplayStore } from '@x/auth';
import { redisScripts, type RedisClient } from './scripts.js';

/**
 * The ioredis shape the stores took before.
 *
 * @deprecated The stores take any {@link RedisClient}.
 */
export interface RedisCommands {
  /** ioredis's `SET key value PX ms NX`. */
  set(key: string, value: string, px: 'PX', milliseconds: number, nx: 'NX'): Promise<'OK' | null | string>;
  /** ioredis's positional `EVAL`. */
  eval(script: string, numKeys: number, ...args: Array<string | number>): Promise<unknown>;
}

/**
 * The first name of {@link RedisCommands}.
 *
 * @deprecated Use {@link RedisClient}.
 */
export type RedisSetNx = RedisCommands;

/** Options of {@link createRedisReplayStore}. */
export interface RedisReplayStoreOptions {
  /** A supported client ({@link RedisClient}): ioredis 5 or 6, iovalkey, node-redis 5 or 6, valkey-glide 2, single or Cluster. Any other object is refused at creation (`XError('unsupported_client')`). */
  client: RedisClient;
  /** Prefix of every key. Default `x:replay:`. */
  prefix?: string | undefined;
}

// Values of a delivery key: the owner's token while reserved (`p:<uuid>`); while being sent,
// SENDING, since when, until when its holder's lease runs (epoch ms by Redis's clock) and the
// token (`s:<since>:<lease>:p:<uuid>`); DONE after a success, VALUE and the value `complete` was
// given after a success that records one. Any other value (e.g. '1', written by `claim` in earlier
// versions) counts as done.
const DONE = 'done';
const OWNER = 'p:';
const VALUE = 'v:';

// Each script reads and writes one key atomically (Redis runs a script without interleaving).
// Times come from Redis (TIME), so that processes with skewed clocks agree on a lease.
const NOW = `local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)`;
// The token that holds the key, reserved or sending (nil when done).
const HOLDER = `local function holder(v)
  if string.sub(v, 1, 2) == '${OWNER}' then return v end
  return string.match(v, '^s:%d+:%d+:(.*)$')
end`;
// The same token again is the same begin (a command resent after its reply was lost): started.
const BEGIN = `local v = redis.call('GET', KEYS[1])
if not v or v == ARGV[1] then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 'started' end
if string.sub(v, 1, 2) == '${OWNER}' then return 'in_progress' end
local lease = string.match(v, '^s:%d+:(%d+):')
if lease then
  ${NOW}
  if tonumber(lease) > now then return 'sending' end
  return 'stalled'
end
return v`;
// Reserved by this token: now being sent, for ARGV[3] ms. Being sent by it: its lease renewed.
const SENDING = `local v = redis.call('GET', KEYS[1])
if not v then return 0 end
${NOW}
local lease = string.format('%.0f', now + tonumber(ARGV[2]))
if v == ARGV[1] then
  redis.call('SET', KEYS[1], 's:' .. string.format('%.0f', now) .. ':' .. lease .. ':' .. ARGV[1], 'PX', ARGV[3])
  return 1
end
local since, owner = string.match(v, '^s:(%d+):%d+:(.*)$')
if owner ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], 's:' .. since .. ':' .. lease .. ':' .. owner, 'PX', math.max(1, redis.call('PTTL', KEYS[1])))
return 1`;
// Done wins whoever holds the mark; 0 says another delivery had taken over the lease.
const COMPLETE = `${HOLDER}
local v = redis.call('GET', KEYS[1])
redis.call('SET', KEYS[1], ARGV[3] or '${DONE}', 'PX', ARGV[2])
if v and holder(v) and holder(v) ~= ARGV[1] then return 0 end
return 1`;
const ABANDON = `${HOLDER}
local v = redis.call('GET', KEYS[1])
if v and holder(v) == ARGV[1] then redis.call('DEL', KEYS[1]) return 1 end
return 0`;
const INSPECT = `local v = redis.call('GET', KEYS[1])
if not v then return false end
${NOW}
return { v, redis.call('PTTL', KEYS[1]), now }`;
const RELEASE = `return redis.call('DEL', KEYS[1])`;
const CLAIM = `if redis.call('SET', KEYS[1], '1', 'PX', ARGV[1], 'NX') then return 1 end
return 0`;

const randomToken = () => OWNER + crypto.randomUUID();
const ms = (value: number) => Math.max(1, Math.ceil(value));

/** A key's state from its value, its PTTL and Redis's time. */
function stateOf(value: string, pttl: number, now: number): DeliveryState {
  const expiresAt = now + Math.max(0, pttl);
  if (value.startsWith(OWNER)) return { state: 'reserved', expiresAt };
  const sending = /^s:(\d+):(\d+):/.exec(value);
  if (sending) {
    const leaseUntil = Number(sending[2]);
    return { state: leaseUntil > now ? 'sending' : 'stalled', expiresAt, sendingSince: Number(sending[1]), leaseUntil };
  }
  return { state: 'done', expiresAt, value: value.startsWith(VALUE) ? value.slice(VALUE.length) : undefined };
}

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
 *   expires after the lease. A `begin` run twice with the same token (a command resent after its
 *   reply was lost) is the same begin.
 * - `sending` / `inspect` / `release` (two-phase sends of `@x/client/idempotency`): one Lua script
 *   each. `sending` turns the holder's reservation into `s:<since>:<lease>:<token>` kept for the
 *   key's ttl and renews its lease; the lease is read against Redis's own clock (`TIME`), so a
 *   holder that stopped renewing is `stalled` for every process alike.
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
export function createRedisReplayStore(options: RedisReplayStoreOptions): ReplayStore & Required<DeliveryStore> {
  const redis = redisScripts(options?.client, 'createRedisReplayStore');
  const prefix = options.prefix ?? 'x:replay:';
  // Each operation touches one key, so any key works on a Cluster: no hash tag is needed.
  const run = (script: string, key: string, ...args: Array<string | number>) => redis.eval(script, [prefix + key], args);
  return {
    async claim(key, ttlMs) {
      return Number(await run(CLAIM, key, ms(ttlMs))) === 1;
    },
    async begin(key, leaseMs): Promise<DeliveryBegin> {
      const token = randomToken();
      const state = await run(BEGIN, key, token, ms(leaseMs));
      if (state === 'started') return { state, token };
      if (state === 'in_progress') return { state };
      if (state === 'sending' || state === 'stalled') return { state: 'in_progress', phase: state };
      return typeof state === 'string' && state.startsWith(VALUE) ? { state: 'done', value: state.slice(VALUE.length) } : { state: 'done' };
    },
    async sending(key, token, leaseMs, ttlMs) {
      return Number(await run(SENDING, key, token, ms(leaseMs), ms(ttlMs))) === 1;
    },
    async inspect(key) {
      const found = (await run(INSPECT, key)) as [string, number, number] | null;
      return found ? stateOf(String(found[0]), Number(found[1]), Number(found[2])) : undefined;
    },
    async release(key) {
      return Number(await run(RELEASE, key)) === 1;
    },
    async complete(key, token, ttlMs, value) {
      const args = value === undefined ? [] : [VALUE + value];
      return Number(await run(COMPLETE, key, token, ms(ttlMs), ...args)) === 1;
    },
    async abandon(key, token) {
      return Number(await run(ABANDON, key, token)) === 1;
    },
  };
}

export { createRedisStateStore } from './state-store.js';
export type { RedisStateCommands, RedisStateStore, RedisStateStoreOptions } from './state-store.js';
export { redisScripts, SUPPORTED_CLIENTS } from './scripts.js';
export type { GlideLikeClient, IoredisLikeClient, NodeRedisLikeClient, RedisClient, RedisScripts } from './scripts.js';
export { createRedisRateLimitStore, createRedisSpendStore } from './volume.js';
export type { RedisRate, RedisRateLimitStore, RedisSpendBudget, RedisSpendStore, RedisVolumeStoreOptions } from './volume.js';

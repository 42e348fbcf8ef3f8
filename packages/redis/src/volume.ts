// Sending at volume on Redis: the rate limit store (one GCRA cell per key) and the spend store (one
// counter per key and period) of `@x/client/volume`, shared by every process. Each call is one
// script on one key, so any key works on a Cluster; Redis's own clock (TIME) is the only clock.
import { XError } from '@x/auth';
import { redisScripts, type RedisClient } from './scripts.js';

/** A rate, as `@x/client/volume` gives it: `perSecond` on average, at most `burst` at once. */
export interface RedisRate {
  /** Sends a second, on average (a fraction for slower rates). */
  perSecond: number;
  /** How many may go at once after a quiet spell (1: strictly spaced). */
  burst: number;
}

/** The `RateLimitStore` of `@x/client/volume`, on Redis. */
export interface RedisRateLimitStore {
  /** Reserves the next slot of `key`: milliseconds to wait for it (0: go now); the caller then sends without asking again. */
  acquire(key: string, rate: RedisRate): Promise<number>;
  /** Holds every slot of `key` until `untilMs` (epoch milliseconds, your clock), for every process. A later end wins. */
  pause(key: string, untilMs: number): Promise<void>;
}

/** A budget as the spend store sees it: at most `max` parts per window of `periodMs`. */
export interface RedisSpendBudget {
  /** The most parts in one period. */
  max: number;
  /** The length of a period, in milliseconds. */
  periodMs: number;
}

/** The `SpendStore` of `@x/client/volume`, on Redis. */
export interface RedisSpendStore {
  /** Counts `parts` against `key` when they fit in `budget` (`used` then includes them); otherwise counts nothing and says when the window ends. */
  spend(key: string, parts: number, budget: RedisSpendBudget): Promise<{ ok: true; used: number } | { ok: false; used: number; resetInMs: number }>;
}

/** Options of {@link createRedisRateLimitStore} and {@link createRedisSpendStore}. */
export interface RedisVolumeStoreOptions {
  /** A supported client ({@link RedisClient}), single or Cluster. */
  client: RedisClient;
  /** Prefix of every key. Default `x:rate:` (rate limits) and `x:spend:` (budgets). */
  prefix?: string | undefined;
}

const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000`;
// One GCRA cell: `tat` (when the next slot after the last one handed out begins) and `paused` (the
// end of a pause), by Redis's clock. A slot is reserved at once; after a pause, slots resume at the
// rate from its end, without a burst (as the memory store of @x/client/volume does).
// ARGV: perSecond, burst. Answers the whole milliseconds to wait.
const ACQUIRE = `${NOW}
local interval = 1000 / tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local f = redis.call('HMGET', KEYS[1], 'tat', 'paused')
local tat = tonumber(f[1]) or now
local paused = tonumber(f[2]) or 0
local floor = now
if paused > now then floor = paused + (burst - 1) * interval end
tat = math.max(tat, floor) + interval
redis.call('HSET', KEYS[1], 'tat', string.format('%.3f', tat))
redis.call('PEXPIRE', KEYS[1], math.ceil(math.max(tat, paused) - now) + 1000)
return math.max(0, math.ceil(tat - burst * interval - now))`;
// ARGV: how long from now (ms) the pause lasts, measured by the caller when it asked.
const PAUSE = `${NOW}
local untilMs = now + tonumber(ARGV[1])
local f = redis.call('HMGET', KEYS[1], 'tat', 'paused')
local paused = tonumber(f[2]) or 0
if untilMs <= paused then return 0 end
redis.call('HSET', KEYS[1], 'paused', string.format('%.3f', untilMs))
redis.call('PEXPIRE', KEYS[1], math.ceil(math.max(tonumber(f[1]) or 0, untilMs) - now) + 1000)
return 1`;
// A fixed window per key: the key holds the parts used and expires when the window ends.
// ARGV: parts, max, periodMs. Answers {1, used} or {0, used, resetInMs}.
const SPEND = `local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local parts, max = tonumber(ARGV[1]), tonumber(ARGV[2])
if used + parts > max then
  local left = redis.call('PTTL', KEYS[1])
  if left < 0 then left = tonumber(ARGV[3]) end
  return {0, used, left}
end
if redis.call('EXISTS', KEYS[1]) == 0 then redis.call('SET', KEYS[1], parts, 'PX', ARGV[3]) else redis.call('INCRBY', KEYS[1], parts) end
return {1, used + parts}`;

const invalid = (message: string) => new XError('invalid_options', message);
const checkKey = (key: string) => {
  if (typeof key !== 'string' || key.length === 0) throw invalid('A rate limit or spend key must be a non-empty string.');
};

/**
 * The rate limit store of `@x/client/volume` on Redis: one generic cell rate (GCRA) per key, one
 * script per `acquire` (a slot reserved, callers served in the order Redis receives them, from any
 * number of processes), and `pause(key, untilMs)` (a 429's Retry-After) held on the key for every
 * process. Redis's clock decides; `pause` turns `untilMs` into a delay from the caller's `Date.now()`.
 * When Redis cannot be reached the call rejects and the sender sends nothing.
 *
 * @example
 * ```ts
 * import { Redis } from 'ioredis';
 * import { createRedisRateLimitStore } from '@x/redis';
 *
 * const store = createRedisRateLimitStore({ client: new Redis(process.env.REDIS_URL!) });
 * const wait = await store.acquire('sms', { perSecond: 10, burst: 1 }); // then send after `wait` ms
 * ```
 */
export function createRedisRateLimitStore(options: RedisVolumeStoreOptions): RedisRateLimitStore {
  const redis = redisScripts(options?.client, 'createRedisRateLimitStore');
  const prefix = options.prefix ?? 'x:rate:';
  return {
    async acquire(key, rate) {
      checkKey(key);
      const { perSecond, burst } = rate ?? ({} as RedisRate);
      if (typeof perSecond !== 'number' || !Number.isFinite(perSecond) || perSecond <= 0 || perSecond > 1_000_000) throw invalid(`rate.perSecond must be a number above 0 and at most 1 000 000, got ${String(perSecond)}.`);
      if (!Number.isSafeInteger(burst) || burst < 1) throw invalid(`rate.burst must be a whole number >= 1, got ${String(burst)}.`);
      return Number(await redis.eval(ACQUIRE, [prefix + key], [perSecond, burst]));
    },
    async pause(key, untilMs) {
      checkKey(key);
      if (typeof untilMs !== 'number' || !Number.isFinite(untilMs)) throw invalid(`pause(key, untilMs): untilMs must be epoch milliseconds, got ${String(untilMs)}.`);
      const delay = Math.ceil(untilMs - Date.now());
      if (delay > 0) await redis.eval(PAUSE, [prefix + key], [delay]);
    },
  };
}

/**
 * The spend store of `@x/client/volume` on Redis: one counter per key in fixed windows (the first
 * spend opens a window of `periodMs`, the key expires when it ends), checked and counted in one
 * script, so two processes never both pass the last parts of a budget. When Redis cannot be
 * reached the call rejects and nothing is sent.
 *
 * @example
 * ```ts
 * import { Redis } from 'ioredis';
 * import { createRedisSpendStore } from '@x/redis';
 *
 * const store = createRedisSpendStore({ client: new Redis(process.env.REDIS_URL!) });
 * await store.spend('account', 2, { max: 10_000, periodMs: 86_400_000 }); // { ok: true, used: 2 }
 * ```
 */
export function createRedisSpendStore(options: RedisVolumeStoreOptions): RedisSpendStore {
  const redis = redisScripts(options?.client, 'createRedisSpendStore');
  const prefix = options.prefix ?? 'x:spend:';
  return {
    async spend(key, parts, budget) {
      checkKey(key);
      if (!Number.isSafeInteger(parts) || parts < 0) throw invalid(`spend: parts must be a whole number >= 0, got ${String(parts)}.`);
      if (!budget || !Number.isSafeInteger(budget.max) || budget.max < 0 || !Number.isSafeInteger(budget.periodMs) || budget.periodMs < 1) {
        throw invalid('spend: budget must be { max, periodMs }: whole numbers, max >= 0 and periodMs >= 1.');
      }
      const [ok, used, left] = ((await redis.eval(SPEND, [prefix + key], [parts, budget.max, budget.periodMs])) as unknown[]).map(Number);
      return ok === 1 ? { ok: true, used: used! } : { ok: false, used: used!, resetInMs: left! };
    },
  };
}

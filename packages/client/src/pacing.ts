// Pacing: one rate shared by every sender that names the same key. The contract (RateLimitStore)
// and its memory store; `@x/redis` implements the same contract for several processes.
import { readClock, type Clock } from '@x/auth';
import { ConfigurationError } from './errors.js';

/** A rate: `perSecond` sends a second on average, at most `burst` of them at once (default 1). */
export interface Rate {
  /** Sends a second, on average (a fraction for slower rates: 0.5 is one every two seconds). */
  perSecond: number;
  /** How many sends may go at once after a quiet spell (1: strictly spaced). */
  burst: number;
}

/**
 * Where a rate is kept: one generic cell rate (GCRA) per key, shared by every caller that names the
 * key (in one process with `createMemoryRateLimitStore`, across processes with
 * `createRedisRateLimitStore` of `@x/redis`).
 *
 * - `acquire(key, rate)` reserves the next slot of the key and answers how many milliseconds to
 *   wait for it (0: go now). The caller waits that long and then sends, without asking again: a
 *   slot is never handed out twice, and callers are served in the order they asked (fair), in one
 *   process or many. The slot is taken even if the caller then gives up.
 * - `pause(key, untilMs)` holds every slot of the key until `untilMs` (epoch milliseconds by the
 *   caller's clock, `Date.now()`): the answer to a 429 with Retry-After, seen by one sender, paced
 *   into all of them. After it, sends resume at the rate, without a burst. A store on a shared
 *   server may turn it into a delay at the call (`untilMs - Date.now()`) and hold it on its own clock.
 *
 * A store that cannot answer rejects: the caller sends nothing (closed).
 */
export interface RateLimitStore {
  /** Reserves the next slot of `key` at `rate`: milliseconds to wait for it, 0 to go now. */
  acquire(key: string, rate: Rate): Promise<number>;
  /** Holds every slot of `key` until `untilMs` (epoch milliseconds). A later `untilMs` wins; an earlier one changes nothing. */
  pause(key: string, untilMs: number): Promise<void>;
}

/** Options of {@link createMemoryRateLimitStore}. */
export interface MemoryRateLimitStoreOptions {
  /** The clock (a Date or epoch milliseconds), as every `now` option of the SDK. Default `Date.now`. */
  now?: Clock | undefined;
}

/** The most keys a memory store holds: past it, keys whose slots are all in the past are dropped first. */
const MAX_KEYS = 10_000;

/** Checks a rate once: a NaN, a zero or a negative rate would pace nothing (or forever). */
export function checkRate(rate: Rate, where = 'rate'): Rate {
  if (!rate || typeof rate !== 'object') throw new ConfigurationError(`${where} must be { perSecond, burst }, e.g. { perSecond: 10, burst: 1 }.`);
  const { perSecond, burst } = rate;
  if (typeof perSecond !== 'number' || !Number.isFinite(perSecond) || perSecond <= 0 || perSecond > 1_000_000) {
    throw new ConfigurationError(`${where}.perSecond must be a number above 0 and at most 1 000 000 (sends a second), got ${String(perSecond)}.`);
  }
  if (typeof burst !== 'number' || !Number.isSafeInteger(burst) || burst < 1) throw new ConfigurationError(`${where}.burst must be a whole number >= 1, got ${String(burst)}.`);
  return rate;
}

/**
 * A rate limit store for one process: each key is a generic cell rate (GCRA), its theoretical
 * arrival time kept in a Map of this store (no state shared between stores). Callers are served in
 * the order they ask. For several processes, use `createRedisRateLimitStore` of `@x/redis`.
 *
 * @example
 * ```ts
 * import { createMemoryRateLimitStore } from '@x/client/volume';
 *
 * const limiter = createMemoryRateLimitStore();
 * const wait = await limiter.acquire('sms', { perSecond: 10, burst: 1 }); // 0, 100, 200, ...
 * ```
 */
export function createMemoryRateLimitStore(options: MemoryRateLimitStoreOptions = {}): RateLimitStore {
  const now = () => readClock(options.now);
  /** Per key: the theoretical arrival time of the next slot, and the end of a pause. */
  const cells = new Map<string, { tat: number; pausedUntil: number }>();

  const forgetIdle = (at: number) => {
    for (const [key, cell] of cells) if (cell.tat <= at && cell.pausedUntil <= at) cells.delete(key);
    if (cells.size < MAX_KEYS) return;
    // Every key busy: the one whose slots end first goes (it is the least behind).
    const [first] = [...cells].sort((a, b) => Math.max(a[1].tat, a[1].pausedUntil) - Math.max(b[1].tat, b[1].pausedUntil));
    if (first) cells.delete(first[0]);
  };

  const cellOf = (key: string, at: number) => {
    if (typeof key !== 'string' || key.length === 0) throw new ConfigurationError('A rate limit key must be a non-empty string.');
    let cell = cells.get(key);
    if (!cell) {
      if (cells.size >= MAX_KEYS) forgetIdle(at);
      cell = { tat: at, pausedUntil: 0 };
      cells.set(key, cell);
    }
    return cell;
  };

  return {
    async acquire(key, rate) {
      const { perSecond, burst } = checkRate(rate);
      const at = now();
      const cell = cellOf(key, at);
      const interval = 1000 / perSecond;
      // After a pause, the first slot is at its end, the next ones spaced: no burst into a service that just said 429.
      const floor = cell.pausedUntil > at ? cell.pausedUntil + (burst - 1) * interval : at;
      const tat = Math.max(cell.tat, floor) + interval;
      cell.tat = tat;
      return Math.max(0, Math.ceil(tat - burst * interval - at));
    },
    async pause(key, untilMs) {
      if (typeof untilMs !== 'number' || !Number.isFinite(untilMs)) throw new ConfigurationError(`pause(key, untilMs): untilMs must be epoch milliseconds, got ${String(untilMs)}.`);
      const cell = cellOf(key, now());
      cell.pausedUntil = Math.max(cell.pausedUntil, untilMs);
    },
  };
}

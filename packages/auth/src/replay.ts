import { readClock, type Clock } from './clock.js';
import { AuthError } from './errors.js';

/**
 * Remembers claimed keys (customer id + nonce) for a time.
 * `claim` returns true the first time a key is claimed within its ttl, false after that.
 */
export interface ReplayStore {
  claim(key: string, ttlMs: number): boolean | Promise<boolean>;
}

/**
 * What `DeliveryStore.begin` found: the delivery is yours (`started`), someone else's, or already
 * done (with the `value` its `complete` recorded, when it gave one).
 */
export type DeliveryBegin = { state: 'started'; token: string } | { state: 'in_progress' } | { state: 'done'; value?: string | undefined };

/**
 * Processes each callback exactly once, which a bare `claim` cannot express. A delivery is
 * *in progress* while the handler runs, *done* only after it succeeded, and released when it failed:
 *
 * - `begin(key, leaseMs)`: `started` with a token when the key is free (or its lease expired);
 *   `in_progress` while another delivery holds it; `done` after a success within the done ttl,
 *   with the value recorded by `complete`.
 * - `complete(key, token, ttlMs, value?)`: records success for `ttlMs`, and `value` with it (a
 *   result that later `begin` calls return: `@x/client/idempotency` keeps a send's answer so), whoever holds the mark: a handler
 *   that outlived its lease and then succeeded is still recorded, so the copy that took over can
 *   no longer release the key (done wins over a later `abandon`). True when this delivery still
 *   held its lease (its own mark, none left, or done already); false when another delivery had
 *   taken over, so that the caller can report the lost lease.
 * - `abandon(key, token)`: removes the in-progress mark when it is still this token's, so the
 *   next delivery is processed. True when removed.
 *
 * An in-progress mark expires after `leaseMs`, so a process that dies mid-handler does not block
 * the key for longer than that.
 */
export interface DeliveryStore {
  begin(key: string, leaseMs: number): DeliveryBegin | Promise<DeliveryBegin>;
  complete(key: string, token: string, ttlMs: number, value?: string): boolean | Promise<boolean>;
  abandon(key: string, token: string): boolean | Promise<boolean>;
}

export interface MemoryReplayStoreOptions {
  /**
   * Most keys kept at once, for nonces and for deliveries each (default 100 000, about 15 MB with
   * UUID nonces). When full, the oldest key is evicted, so a nonce older than the cap could be
   * replayed, or a callback processed again: size it above your peak per retention window, or use
   * a shared store such as @x/redis.
   */
  maxEntries?: number | undefined;
  /** Clock, for tests: a Date or epoch milliseconds. Default `Date.now`. */
  now?: Clock | undefined;
}

export interface MemoryReplayStore extends ReplayStore, DeliveryStore {
  claim(key: string, ttlMs: number): boolean;
  begin(key: string, leaseMs: number): DeliveryBegin;
  complete(key: string, token: string, ttlMs: number, value?: string): boolean;
  abandon(key: string, token: string): boolean;
  /** Keys currently held, nonces and deliveries (expired ones are dropped as the store is used). */
  readonly size: number;
  clear(): void;
}

/** An entry of one kind, in a list ordered by last write (oldest first). */
interface Entry<V> {
  key: string;
  value: V;
  expiry: number;
  older: Entry<V> | undefined;
  newer: Entry<V> | undefined;
}

/**
 * Keys of one kind with their expiry, at most `maxEntries`: a Map for lookups plus a doubly linked
 * list in order of last write, so that every operation is O(1): rewriting a key moves its entry to
 * the newest end, expired entries leave from the oldest end, and beyond the cap the oldest entry
 * is evicted (its object reused for the new key). Iterating a Map from its start instead walks
 * the slots of every entry deleted since the last rehash: that was 79 us per claim at the cap.
 */
function boundedKeys<V>(maxEntries: number) {
  const index = new Map<string, Entry<V>>();
  let oldest: Entry<V> | undefined;
  let newest: Entry<V> | undefined;

  const unlink = (entry: Entry<V>) => {
    if (entry.older) entry.older.newer = entry.newer;
    else oldest = entry.newer;
    if (entry.newer) entry.newer.older = entry.older;
    else newest = entry.older;
  };
  const remove = (entry: Entry<V>) => {
    unlink(entry);
    index.delete(entry.key);
  };

  return {
    index,
    /** The entry of a key, expired or not (callers check the expiry). */
    get: (key: string) => index.get(key),
    /** Drops expired entries from the oldest end, up to the first live one. */
    sweep(at: number) {
      while (oldest && oldest.expiry <= at) remove(oldest);
    },
    /**
     * Writes a key as the newest entry; beyond the cap, evicts the oldest. `entry`: the key's, as
     * the caller just looked it up (undefined: none; not looked up again, which a default parameter
     * did on every new key).
     */
    set(key: string, value: V, expiry: number, entry: Entry<V> | undefined) {
      if (entry) unlink(entry);
      else if (index.size >= maxEntries && oldest) {
        entry = oldest;
        remove(entry);
        entry.key = key;
        index.set(key, entry);
      } else index.set(key, (entry = { key, value, expiry, older: undefined, newer: undefined }));
      entry.value = value;
      entry.expiry = expiry;
      entry.older = newest;
      entry.newer = undefined;
      if (newest) newest.newer = entry;
      else oldest = entry;
      newest = entry;
    },
    delete(key: string) {
      const entry = index.get(key);
      if (entry) remove(entry);
    },
    clear() {
      index.clear();
      oldest = newest = undefined;
    },
  };
}

/**
 * A bounded in-memory replay and delivery store for one process. Memory stays flat under any
 * load: expired keys are dropped from the oldest end on every call (write order is close to
 * expiry order), and beyond `maxEntries` the oldest key is evicted, each in constant time. Expiry
 * is also checked on every read, so an entry left behind by the sweep is never taken for a live one.
 *
 * @example
 * ```ts
 * import { createMemoryReplayStore, verifyRequest } from '@x/auth';
 *
 * const replayStore = createMemoryReplayStore({ maxEntries: 10_000 });
 * const request = { method: 'GET', url: '/v1/messaging/ABC', headers: { authorization: 'TSA ...' } };
 * const result = await verifyRequest(request, { credentials: lookup, replayStore }); // a nonce is accepted once
 * ```
 */
export function createMemoryReplayStore(options: MemoryReplayStoreOptions = {}): MemoryReplayStore {
  const maxEntries = options.maxEntries ?? 100_000;
  if (!Number.isInteger(maxEntries) || maxEntries < 1) {
    throw new AuthError('invalid_option', `createMemoryReplayStore: maxEntries is ${String(maxEntries)}: pass a positive integer (the most keys kept at once; default 100000), or leave it out.`);
  }
  const clock = options.now;
  const now = clock ? () => readClock(clock) : Date.now;
  const claims = boundedKeys<undefined>(maxEntries);
  /** Delivery marks: the token while in progress, `{ value }` once done. */
  const marks = boundedKeys<string | { value?: string | undefined }>(maxEntries);
  let tokens = 0;

  /** The key's mark entry after the sweep, expired or not; `live` tells. */
  const markOf = (key: string, at: number) => {
    marks.sweep(at);
    const entry = marks.get(key);
    return { entry, live: entry && entry.expiry > at ? entry : undefined };
  };

  return {
    claim(key, ttlMs) {
      const at = now();
      claims.sweep(at);
      const claimed = claims.get(key);
      if (claimed && claimed.expiry > at) return false;
      claims.set(key, undefined, at + ttlMs, claimed);
      return true;
    },
    begin(key, leaseMs) {
      const at = now();
      const { entry, live } = markOf(key, at);
      if (live) return typeof live.value === 'string' ? { state: 'in_progress' } : { state: 'done', value: live.value.value };
      const token = `m${++tokens}`;
      marks.set(key, token, at + leaseMs, entry);
      return { state: 'started', token };
    },
    complete(key, token, ttlMs, value) {
      const at = now();
      const { entry, live } = markOf(key, at);
      const held = !live || live.value === token || typeof live.value !== 'string';
      marks.set(key, { value }, at + ttlMs, entry);
      return held;
    },
    abandon(key, token) {
      const { live } = markOf(key, now());
      if (!live || live.value !== token) return false;
      marks.delete(key);
      return true;
    },
    get size() {
      return claims.index.size + marks.index.size;
    },
    clear() {
      claims.clear();
      marks.clear();
    },
  };
}

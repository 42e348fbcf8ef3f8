/**
 * Remembers claimed keys (customer id + nonce) for a time.
 * `claim` returns true the first time a key is claimed within its ttl, false after that.
 */
export interface ReplayStore {
  claim(key: string, ttlMs: number): boolean | Promise<boolean>;
}

/** What `DeliveryStore.begin` found: the delivery is yours (`started`), someone else's, or already done. */
export type DeliveryBegin = { state: 'started'; token: string } | { state: 'in_progress' } | { state: 'done' };

/**
 * Processes each callback exactly once, which a bare `claim` cannot express. A delivery is
 * *in progress* while the handler runs, *done* only after it succeeded, and released when it failed:
 *
 * - `begin(key, leaseMs)`: `started` with a token when the key is free (or its lease expired);
 *   `in_progress` while another delivery holds it; `done` after a success within the done ttl.
 * - `complete(key, token, ttlMs)`: records success for `ttlMs`. Only when the mark is this token's,
 *   or no mark is left (the lease expired and nobody took over); never over another delivery's
 *   mark. True when recorded.
 * - `abandon(key, token)`: removes the in-progress mark when it is still this token's, so the
 *   next delivery is processed. True when removed.
 *
 * An in-progress mark expires after `leaseMs`, so a process that dies mid-handler does not block
 * the key for longer than that.
 */
export interface DeliveryStore {
  begin(key: string, leaseMs: number): DeliveryBegin | Promise<DeliveryBegin>;
  complete(key: string, token: string, ttlMs: number): boolean | Promise<boolean>;
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
  /** Clock, for tests. Default `Date.now`. */
  now?: (() => number) | undefined;
}

export interface MemoryReplayStore extends ReplayStore, DeliveryStore {
  claim(key: string, ttlMs: number): boolean;
  begin(key: string, leaseMs: number): DeliveryBegin;
  complete(key: string, token: string, ttlMs: number): boolean;
  abandon(key: string, token: string): boolean;
  /** Keys currently held, nonces and deliveries (expired ones are dropped as the store is used). */
  readonly size: number;
  clear(): void;
}

/** A delivery mark: `token` while in progress, `null` once done. */
interface Mark {
  token: string | null;
  expiry: number;
}

/**
 * A bounded in-memory replay and delivery store for one process. Memory stays flat under any
 * load: expired keys are dropped from the front on every call (insertion order is close to expiry
 * order), and beyond `maxEntries` the oldest key is evicted. Expiry is also checked on every read,
 * so an entry left behind by the sweep is never taken for a live one.
 */
export function createMemoryReplayStore(options: MemoryReplayStoreOptions = {}): MemoryReplayStore {
  const maxEntries = options.maxEntries ?? 100_000;
  if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError('maxEntries must be a positive integer.');
  const now = options.now ?? Date.now;
  const expiries = new Map<string, number>();
  const marks = new Map<string, Mark>();
  let tokens = 0;

  const sweep = <V>(map: Map<string, V>, expiryOf: (value: V) => number, at: number) => {
    for (const [key, value] of map) {
      if (expiryOf(value) > at) break;
      map.delete(key);
    }
  };
  const insert = <V>(map: Map<string, V>, key: string, value: V) => {
    map.delete(key); // re-inserted at the end: the map stays ordered by last write
    map.set(key, value);
    if (map.size > maxEntries) map.delete(map.keys().next().value as string);
  };
  const live = (key: string, at: number) => {
    sweep(marks, (mark) => mark.expiry, at);
    const mark = marks.get(key);
    return mark && mark.expiry > at ? mark : undefined;
  };

  return {
    claim(key, ttlMs) {
      const at = now();
      sweep(expiries, (expiry) => expiry, at);
      const expiry = expiries.get(key);
      if (expiry !== undefined && expiry > at) return false;
      insert(expiries, key, at + ttlMs);
      return true;
    },
    begin(key, leaseMs) {
      const at = now();
      const mark = live(key, at);
      if (mark) return mark.token === null ? { state: 'done' } : { state: 'in_progress' };
      const token = `m${++tokens}`;
      insert(marks, key, { token, expiry: at + leaseMs });
      return { state: 'started', token };
    },
    complete(key, token, ttlMs) {
      const at = now();
      const mark = live(key, at);
      if (mark && mark.token !== token) return false;
      insert(marks, key, { token: null, expiry: at + ttlMs });
      return true;
    },
    abandon(key, token) {
      const mark = live(key, now());
      if (!mark || mark.token !== token) return false;
      marks.delete(key);
      return true;
    },
    get size() {
      return expiries.size + marks.size;
    },
    clear() {
      expiries.clear();
      marks.clear();
    },
  };
}

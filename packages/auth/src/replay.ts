/**
 * Remembers claimed keys (customer id + nonce, or a callback's identity) for a time.
 * `claim` returns true the first time a key is claimed within its ttl, false after that.
 */
export interface ReplayStore {
  claim(key: string, ttlMs: number): boolean | Promise<boolean>;
}

export interface MemoryReplayStoreOptions {
  /**
   * Most keys kept at once (default 100 000, about 15 MB with UUID nonces). When full, the oldest
   * key is evicted, so a nonce older than the cap could be replayed: size it above your peak
   * requests per 15 minutes, or use a shared store such as @x/redis.
   */
  maxEntries?: number;
  /** Clock, for tests. Default `Date.now`. */
  now?: () => number;
}

export interface MemoryReplayStore extends ReplayStore {
  claim(key: string, ttlMs: number): boolean;
  /** Keys currently held (expired ones are dropped as the store is used). */
  readonly size: number;
  clear(): void;
}

/**
 * A bounded in-memory replay store for one process. Memory stays flat under any load: expired
 * keys are dropped from the front on every claim (insertion order is expiry order for a constant
 * ttl), and beyond `maxEntries` the oldest key is evicted.
 */
export function createMemoryReplayStore(options: MemoryReplayStoreOptions = {}): MemoryReplayStore {
  const maxEntries = options.maxEntries ?? 100_000;
  if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError('maxEntries must be a positive integer.');
  const now = options.now ?? Date.now;
  const expiries = new Map<string, number>();

  const sweep = (at: number) => {
    for (const [key, expiry] of expiries) {
      if (expiry > at) break;
      expiries.delete(key);
    }
  };

  return {
    claim(key, ttlMs) {
      const at = now();
      sweep(at);
      const expiry = expiries.get(key);
      if (expiry !== undefined && expiry > at) return false;
      expiries.delete(key);
      expiries.set(key, at + ttlMs);
      if (expiries.size > maxEntries) expiries.delete(expiries.keys().next().value as string);
      return true;
    },
    get size() {
      return expiries.size;
    },
    clear() {
      expiries.clear();
    },
  };
}

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
 * done (with the `value` its `complete` recorded, when it gave one). For a key being sent (two
 * phases, see `DeliveryStore.sending`), `in_progress` says `phase: 'sending'` while its holder
 * renews its lease, and `phase: 'stalled'` once it stopped (the send's outcome is unknown).
 */
export type DeliveryBegin =
  | { state: 'started'; token: string }
  | { state: 'in_progress'; phase?: 'sending' | 'stalled' | undefined }
  | { state: 'done'; value?: string | undefined };

/**
 * A key as `DeliveryStore.inspect` sees it (times in epoch milliseconds, by the store's clock):
 * `reserved` (begun, not sending yet: free again at `expiresAt`), `sending` (its holder renews a
 * lease until `leaseUntil`), `stalled` (sending, and its holder stopped renewing: its outcome is
 * unknown), `done` (with the value `complete` recorded).
 */
export interface DeliveryState {
  /** Where the key is: see above. */
  state: 'reserved' | 'sending' | 'stalled' | 'done';
  /** When the store forgets the key. */
  expiresAt: number;
  /** `sending` and `stalled`: when the key was marked as being sent. */
  sendingSince?: number | undefined;
  /** `sending` and `stalled`: until when its holder's lease runs (past it: stalled). */
  leaseUntil?: number | undefined;
  /** `done`: the value `complete` recorded, if any. */
  value?: string | undefined;
}

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
 * - `abandon(key, token)`: removes the in-progress mark (reserved or sending) when it is still this
 *   token's, so the next delivery is processed. True when removed.
 *
 * An in-progress mark expires after `leaseMs`, so a process that dies mid-handler does not block
 * the key for longer than that.
 *
 * Sends that must never go out twice (`@x/client/idempotency`) use two phases and the optional
 * methods below (both stores of the SDK have them): `begin` reserves the key for a short lease;
 * `sending` marks it as being sent right before the request leaves, after which the key is never
 * free again by itself before `ttlMs`, even if its holder dies: once its holder stops renewing the
 * lease, `begin` answers `in_progress` with `phase: 'stalled'`.
 */
export interface DeliveryStore {
  begin(key: string, leaseMs: number): DeliveryBegin | Promise<DeliveryBegin>;
  complete(key: string, token: string, ttlMs: number, value?: string): boolean | Promise<boolean>;
  abandon(key: string, token: string): boolean | Promise<boolean>;
  /**
   * Marks a key this token reserved (or is sending) as being sent, held for `ttlMs` from the first
   * mark, with a lease of `leaseMs` from now that the holder renews by calling it again. False
   * when the token no longer holds the key (its reservation expired, or it was released).
   */
  sending?(key: string, token: string, leaseMs: number, ttlMs: number): boolean | Promise<boolean>;
  /** The key's state, or undefined when the store holds nothing for it. Never a secret: what `complete` was given. */
  inspect?(key: string): DeliveryState | undefined | Promise<DeliveryState | undefined>;
  /** Forgets the key whatever its state (for reconciliation, once its send is known not to have gone out). True when it held one. */
  release?(key: string): boolean | Promise<boolean>;
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
  sending(key: string, token: string, leaseMs: number, ttlMs: number): boolean;
  inspect(key: string): DeliveryState | undefined;
  release(key: string): boolean;
  /** Live keys, nonces and deliveries (reading it drops the expired ones, as every call does). */
  readonly size: number;
  clear(): void;
}

/** Entries written with one duration, oldest first: in write order, which is also expiry order. */
interface List<V> {
  span: number;
  oldest: Entry<V> | undefined;
  newest: Entry<V> | undefined;
}

/** An entry of one kind, in the list of the duration it was last written with. */
interface Entry<V> {
  key: string;
  value: V;
  expiry: number;
  list: List<V>;
  older: Entry<V> | undefined;
  newer: Entry<V> | undefined;
}

/**
 * Keys of one kind with their expiry, at most `maxEntries`: a Map for lookups plus, per duration
 * written with (a lease, a ttl: a few in practice), a doubly linked list in write order, which
 * within one duration is expiry order. So every expired entry leaves from the oldest end of its
 * list as soon as the store is used (a key written with a long ttl never holds back the expired
 * short leases written before it), and beyond the cap the entry that expires first is evicted,
 * each in O(number of durations). Iterating a Map from its start instead walks the slots of every
 * entry deleted since the last rehash, which made each claim at the cap slow.
 */
function boundedKeys<V>(maxEntries: number) {
  const index = new Map<string, Entry<V>>();
  const lists = new Map<number, List<V>>();

  const unlink = (entry: Entry<V>) => {
    const list = entry.list;
    if (entry.older) entry.older.newer = entry.newer;
    else list.oldest = entry.newer;
    if (entry.newer) entry.newer.older = entry.older;
    else list.newest = entry.older;
    if (!list.oldest) lists.delete(list.span);
  };
  const remove = (entry: Entry<V>) => {
    unlink(entry);
    index.delete(entry.key);
  };
  /** The entry that expires first (ties: the shorter duration), the one evicted beyond the cap. */
  const first = () => {
    let found: Entry<V> | undefined;
    for (const { oldest } of lists.values()) if (oldest && (!found || oldest.expiry < found.expiry || (oldest.expiry === found.expiry && oldest.list.span < found.list.span))) found = oldest;
    return found;
  };

  return {
    index,
    /** The entry of a key, expired or not (callers check the expiry). */
    get: (key: string) => index.get(key),
    /** Drops the expired entries of every list. */
    sweep(at: number) {
      for (const list of lists.values()) while (list.oldest && list.oldest.expiry <= at) remove(list.oldest);
    },
    /**
     * Writes a key as the newest entry of its duration's list; beyond the cap, evicts the entry
     * that expires first. `entry`: the key's, as the caller just looked it up (undefined: none).
     */
    set(key: string, value: V, at: number, span: number, entry: Entry<V> | undefined) {
      let list = lists.get(span);
      if (!list) lists.set(span, (list = { span, oldest: undefined, newest: undefined }));
      if (entry) unlink(entry);
      else if (index.size >= maxEntries && (entry = first())) {
        remove(entry);
        entry.key = key;
        index.set(key, entry);
      } else index.set(key, (entry = { key, value, expiry: 0, list, older: undefined, newer: undefined }));
      // The list may have been emptied (and dropped) by the unlink: it is registered again.
      if (!list.oldest) lists.set(span, list);
      entry.value = value;
      entry.expiry = at + span;
      entry.list = list;
      entry.older = list.newest;
      entry.newer = undefined;
      if (list.newest) list.newest.newer = entry;
      else list.oldest = entry;
      list.newest = entry;
    },
    delete(key: string) {
      const entry = index.get(key);
      if (entry) remove(entry);
    },
    clear() {
      index.clear();
      lists.clear();
    },
  };
}

/**
 * A delivery mark, lean (thousands are held for a day): a number while reserved (its token's),
 * `Sending` while being sent, and once done the value `complete` recorded (a string, or undefined).
 */
interface Sending {
  token: number;
  since: number;
  lease: number;
}
type Mark = number | Sending | string | undefined;

/**
 * A bounded in-memory replay and delivery store for one process. Memory stays flat under any
 * load: every expired key is dropped on the next call (or read of `size`), whatever the ttls mixed
 * in it, and beyond `maxEntries` the key that expires first is evicted. Expiry is also checked on
 * every read, so an entry left behind by the sweep is never taken for a live one. A key costs
 * about 250 bytes plus what it holds (its name and the value given to `complete`).
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
  const marks = boundedKeys<Mark>(maxEntries);
  let tokens = 0;

  /** The key's mark entry after the sweep, expired or not; `live` tells. */
  const markOf = (key: string, at: number) => {
    marks.sweep(at);
    const entry = marks.get(key);
    return { entry, live: entry && entry.expiry > at ? entry : undefined };
  };
  /** The token of the mark's holder, while it is in progress (reserved or sending). */
  const holder = (mark: Mark) => (typeof mark === 'number' ? mark : typeof mark === 'object' ? mark.token : undefined);
  const tokenOf = (token: string) => (token.startsWith('m') ? Number(token.slice(1)) : Number.NaN);

  return {
    claim(key, ttlMs) {
      const at = now();
      claims.sweep(at);
      const claimed = claims.get(key);
      if (claimed && claimed.expiry > at) return false;
      claims.set(key, undefined, at, ttlMs, claimed);
      return true;
    },
    begin(key, leaseMs) {
      const at = now();
      const { entry, live } = markOf(key, at);
      if (live) {
        const mark = live.value;
        if (typeof mark === 'number') return { state: 'in_progress' };
        if (typeof mark === 'object') return { state: 'in_progress', phase: mark.lease > at ? 'sending' : 'stalled' };
        return { state: 'done', value: mark };
      }
      const token = ++tokens;
      marks.set(key, token, at, leaseMs, entry);
      return { state: 'started', token: `m${token}` };
    },
    sending(key, token, leaseMs, ttlMs) {
      const at = now();
      const { live } = markOf(key, at);
      const mark = live?.value;
      if (!live || holder(mark) !== tokenOf(token)) return false;
      if (typeof mark === 'object') mark.lease = at + leaseMs;
      else marks.set(key, { token: mark as number, since: at, lease: at + leaseMs }, at, ttlMs, live);
      return true;
    },
    complete(key, token, ttlMs, value) {
      const at = now();
      const { entry, live } = markOf(key, at);
      const owner = live && holder(live.value);
      marks.set(key, value, at, ttlMs, entry);
      return owner === undefined || owner === tokenOf(token);
    },
    abandon(key, token) {
      const { live } = markOf(key, now());
      if (!live || holder(live.value) !== tokenOf(token)) return false;
      marks.delete(key);
      return true;
    },
    inspect(key) {
      const at = now();
      const { live } = markOf(key, at);
      if (!live) return undefined;
      const mark = live.value;
      if (typeof mark === 'number') return { state: 'reserved', expiresAt: live.expiry };
      if (typeof mark === 'object') return { state: mark.lease > at ? 'sending' : 'stalled', expiresAt: live.expiry, sendingSince: mark.since, leaseUntil: mark.lease };
      return { state: 'done', expiresAt: live.expiry, value: mark };
    },
    release(key) {
      const { live } = markOf(key, now());
      marks.delete(key);
      return live !== undefined;
    },
    get size() {
      const at = now();
      claims.sweep(at);
      marks.sweep(at);
      return claims.index.size + marks.index.size;
    },
    clear() {
      claims.clear();
      marks.clear();
    },
  };
}

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AuthError, createMemoryReplayStore, XError, type DeliveryBegin } from '../src/index.js';
import { sha256Hex } from '../src/protocol.js';

/**
 * The store's contract, written the plain way (O(n) lists): per kind, entries in write order;
 * every expired entry dropped as the kind is used; beyond maxEntries the entry that expires first
 * is evicted (ties: the shorter duration, then the oldest write); expiry checked on every read.
 */
function modelStore(maxEntries: number, now: () => number) {
  type Entry = { key: string; expiry: number; span: number; token: string | null };
  const claims: Entry[] = [];
  const marks: Entry[] = [];
  let tokens = 0;
  const sweep = (list: Entry[], at: number) => {
    for (let i = list.length - 1; i >= 0; i--) if (list[i]!.expiry <= at) list.splice(i, 1);
  };
  const find = (list: Entry[], key: string) => list.find((e) => e.key === key);
  const remove = (list: Entry[], key: string) => {
    const i = list.findIndex((e) => e.key === key);
    if (i >= 0) list.splice(i, 1);
  };
  const write = (list: Entry[], entry: Entry) => {
    const had = find(list, entry.key);
    if (!had && list.length >= maxEntries) {
      const first = list.reduce((a, b) => (b.expiry < a.expiry || (b.expiry === a.expiry && b.span < a.span) ? b : a));
      remove(list, first.key);
    }
    remove(list, entry.key);
    list.push(entry);
  };
  const live = (key: string, at: number) => {
    sweep(marks, at);
    const mark = find(marks, key);
    return mark && mark.expiry > at ? mark : undefined;
  };
  return {
    claim(key: string, ttl: number) {
      const at = now();
      sweep(claims, at);
      const entry = find(claims, key);
      if (entry && entry.expiry > at) return false;
      write(claims, { key, expiry: at + ttl, span: ttl, token: null });
      return true;
    },
    begin(key: string, lease: number): DeliveryBegin {
      const at = now();
      const mark = live(key, at);
      if (mark) return mark.token === null ? { state: 'done' } : { state: 'in_progress' };
      const token = `t${++tokens}`;
      write(marks, { key, expiry: at + lease, span: lease, token });
      return { state: 'started', token };
    },
    complete(key: string, token: string, ttl: number) {
      const at = now();
      const mark = live(key, at);
      write(marks, { key, expiry: at + ttl, span: ttl, token: null });
      return !mark || mark.token === token || mark.token === null;
    },
    abandon(key: string, token: string) {
      const mark = live(key, now());
      if (!mark || mark.token !== token) return false;
      remove(marks, key);
      return true;
    },
    get size() {
      sweep(claims, now());
      sweep(marks, now());
      return claims.length + marks.length;
    },
  };
}

describe('createMemoryReplayStore', () => {
  it('claims a key once within its ttl, again after it expires', () => {
    let now = 0;
    const store = createMemoryReplayStore({ now: () => now });
    expect(store.claim('a', 1000)).toBe(true);
    expect(store.claim('a', 1000)).toBe(false);
    now = 999;
    expect(store.claim('a', 1000)).toBe(false);
    now = 1000;
    expect(store.claim('a', 1000)).toBe(true);
  });

  it('drops expired keys as it is used', () => {
    let now = 0;
    const store = createMemoryReplayStore({ now: () => now });
    for (let i = 0; i < 100; i++) store.claim(`k${i}`, 10);
    expect(store.size).toBe(100);
    now = 11;
    store.claim('fresh', 10);
    expect(store.size).toBe(1);
  });

  it('stays at maxEntries under load, evicting the oldest', () => {
    const store = createMemoryReplayStore({ maxEntries: 1000, now: () => 0 });
    for (let i = 0; i < 50_000; i++) store.claim(`k${i}`, 60_000);
    expect(store.size).toBe(1000);
    expect(store.claim('k49999', 60_000)).toBe(false);
    expect(store.claim('k0', 60_000)).toBe(true);
  });

  it('claims beyond the cap: keeps exactly the newest maxEntries keys, whatever was re-claimed in between', () => {
    let now = 0;
    const store = createMemoryReplayStore({ maxEntries: 3, now: () => now });
    for (const key of ['a', 'b', 'c']) expect(store.claim(key, 10)).toBe(true);
    now = 10; // 'a', 'b' and 'c' expire; 'a' is claimed again and becomes the newest
    expect(store.claim('a', 100)).toBe(true);
    for (const key of ['d', 'e']) expect(store.claim(key, 100)).toBe(true);
    expect(store.size).toBe(3);
    // 'a' was written after 'b' and 'c' expired: it is held, the cap keeps a, d, e.
    for (const key of ['a', 'd', 'e']) expect(store.claim(key, 100)).toBe(false);
    expect(store.claim('f', 100)).toBe(true); // evicts 'a', the oldest write
    expect(store.claim('a', 100)).toBe(true); // so 'a' is fresh again, and evicts 'd'
    expect(store.claim('e', 100)).toBe(false);
    expect(store.claim('d', 100)).toBe(true);
    expect(store.size).toBe(3);
  });

  it('a key claimed again after it expired (but before the sweep reached it) counts as the newest', () => {
    let now = 0;
    const store = createMemoryReplayStore({ maxEntries: 3, now: () => now });
    store.claim('long', 100);
    store.claim('short', 5);
    store.claim('mid', 100);
    now = 5; // 'short' expired; the sweep stops at 'long', which is still live
    expect(store.claim('short', 100)).toBe(true); // now the newest: long, mid, short
    store.claim('x', 100); // beyond the cap: evicts 'long'
    expect(store.claim('mid', 100)).toBe(false);
    store.claim('y', 100); // evicts 'mid', not 'short'
    expect(store.claim('short', 100)).toBe(false);
    expect(store.claim('mid', 100)).toBe(true);
  });

  it('behaves as the plain model for any sequence of claims and deliveries (fast-check)', () => {
    const key = fc.constantFrom('a', 'b', 'c', 'd');
    const ttl = fc.integer({ min: 1, max: 50 });
    const op = fc.oneof(
      fc.record({ kind: fc.constant('claim' as const), key, ttl }),
      fc.record({ kind: fc.constant('begin' as const), key, ttl }),
      fc.record({ kind: fc.constant('complete' as const), key, ttl, which: fc.nat(5) }),
      fc.record({ kind: fc.constant('abandon' as const), key, ttl, which: fc.nat(5) }),
      fc.record({ kind: fc.constant('wait' as const), key, ttl }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3 }), fc.array(op, { minLength: 10, maxLength: 60, size: 'max' }), (maxEntries, ops) => {
        let now = 0;
        const store = createMemoryReplayStore({ maxEntries, now: () => now });
        const model = modelStore(maxEntries, () => now);
        // Tokens handed out, per key (store's, model's): mostly the key's latest, sometimes an older one.
        const tokens = new Map<string, Array<[string, string]>>();
        for (const o of ops) {
          if (o.kind === 'wait') now += o.ttl;
          else if (o.kind === 'claim') expect(store.claim(o.key, o.ttl)).toBe(model.claim(o.key, o.ttl));
          else if (o.kind === 'begin') {
            const got = store.begin(o.key, o.ttl);
            const want = model.begin(o.key, o.ttl);
            expect(got.state).toBe(want.state);
            if (got.state === 'started' && want.state === 'started') tokens.set(o.key, [[got.token, want.token], ...(tokens.get(o.key) ?? [])]);
          } else {
            const given = tokens.get(o.key) ?? [];
            const [mine, theirs] = given[o.which % 3 === 0 ? o.which % Math.max(1, given.length) : 0] ?? ['none', 'none'];
            if (o.kind === 'complete') expect(store.complete(o.key, mine, o.ttl)).toBe(model.complete(o.key, theirs, o.ttl));
            else expect(store.abandon(o.key, mine)).toBe(model.abandon(o.key, theirs));
          }
          expect(store.size).toBe(model.size);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('rejects a cap that is not a positive integer with an AuthError (code invalid_option) that says what to pass', () => {
    for (const maxEntries of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      const error = (() => {
        try {
          createMemoryReplayStore({ maxEntries });
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(AuthError);
      expect(error).toBeInstanceOf(XError);
      expect(error).toMatchObject({ name: 'AuthError', code: 'invalid_option' });
      expect((error as Error).message).toContain(`maxEntries is ${String(maxEntries)}`);
      expect((error as Error).message).toMatch(/pass a positive integer/);
    }
  });
});

describe('createMemoryReplayStore as a delivery store (callbacks processed exactly once)', () => {
  const lease = 30_000;
  const day = 86_400_000;

  it('a delivery is in progress while it runs, done after complete', () => {
    const store = createMemoryReplayStore({ now: () => 0 });
    const first = store.begin('d', lease);
    expect(first.state).toBe('started');
    expect(store.begin('d', lease)).toEqual({ state: 'in_progress' });
    expect(store.complete('d', (first as { token: string }).token, day)).toBe(true);
    expect(store.begin('d', lease)).toEqual({ state: 'done' });
  });

  it('abandon releases the mark, so the next delivery is processed', () => {
    const store = createMemoryReplayStore({ now: () => 0 });
    const first = store.begin('d', lease) as { state: 'started'; token: string };
    expect(store.abandon('d', first.token)).toBe(true);
    const second = store.begin('d', lease);
    expect(second.state).toBe('started');
    expect((second as { token: string }).token).not.toBe(first.token);
  });

  it('an in-progress mark expires after its lease (a process that died mid-handler)', () => {
    let now = 0;
    const store = createMemoryReplayStore({ now: () => now });
    store.begin('d', lease);
    now = lease - 1;
    expect(store.begin('d', lease)).toEqual({ state: 'in_progress' });
    now = lease;
    expect(store.begin('d', lease).state).toBe('started');
  });

  it('abandon only touches the mark this delivery owns', () => {
    let now = 0;
    const store = createMemoryReplayStore({ now: () => now });
    const stale = store.begin('d', lease) as { token: string };
    now = lease; // the first lease expired; another delivery took over
    const current = store.begin('d', lease) as { token: string };
    expect(store.abandon('d', stale.token)).toBe(false);
    expect(store.begin('d', lease)).toEqual({ state: 'in_progress' });
    expect(store.complete('d', current.token, day)).toBe(true);
    expect(store.begin('d', lease)).toEqual({ state: 'done' });
  });

  it('a success is recorded whoever holds the lease (done wins over a later release); complete says the lease was lost', () => {
    let now = 0;
    const store = createMemoryReplayStore({ now: () => now });
    const slow = store.begin('d', lease) as { token: string };
    now = lease; // the slow handler outlived its lease; a copy took over
    const copy = store.begin('d', lease) as { token: string };
    expect(store.complete('d', slow.token, day)).toBe(false); // lost the lease, recorded all the same
    expect(store.begin('d', lease)).toEqual({ state: 'done' });
    expect(store.abandon('d', copy.token)).toBe(false); // the copy failed: the success stays
    expect(store.begin('d', lease)).toEqual({ state: 'done' });
    expect(store.complete('d', copy.token, day)).toBe(true); // done already: nothing lost
    expect(store.begin('d', lease)).toEqual({ state: 'done' });
  });

  it('a late success is recorded when nobody else holds the mark', () => {
    let now = 0;
    const store = createMemoryReplayStore({ now: () => now });
    const slow = store.begin('d', lease) as { token: string };
    now = lease + 1;
    expect(store.complete('d', slow.token, day)).toBe(true);
    expect(store.begin('d', lease)).toEqual({ state: 'done' });
  });

  it('keeps the value complete() records and gives it to every later begin (the stored result of a send)', () => {
    const store = createMemoryReplayStore({ now: () => 0 });
    const first = store.begin('d', lease) as { token: string };
    expect(store.complete('d', first.token, day, '{"ref":"A"}')).toBe(true);
    expect(store.begin('d', lease)).toEqual({ state: 'done', value: '{"ref":"A"}' });
    expect(store.begin('d', lease)).toEqual({ state: 'done', value: '{"ref":"A"}' });
    expect(store.begin('e', lease).state).toBe('started'); // another key: nothing shared
  });

  it('done expires after its ttl', () => {
    let now = 0;
    const store = createMemoryReplayStore({ now: () => now });
    store.complete('d', (store.begin('d', lease) as { token: string }).token, day);
    now = day;
    expect(store.begin('d', lease).state).toBe('started');
  });

  it('nonce claims and deliveries do not see each other', () => {
    const store = createMemoryReplayStore({ now: () => 0 });
    expect(store.claim('k', 1000)).toBe(true);
    expect(store.begin('k', lease).state).toBe('started');
  });

  it('stays bounded under load', () => {
    const store = createMemoryReplayStore({ maxEntries: 500, now: () => 0 });
    for (let i = 0; i < 20_000; i++) {
      const begun = store.begin(`d${i}`, lease);
      if (i % 2 && begun.state === 'started') store.complete(`d${i}`, begun.token, day);
    }
    expect(store.size).toBeLessThanOrEqual(500);
  });
});

describe('createMemoryReplayStore: memory comes back when keys expire', () => {
  it('size goes back to 0 once every key expired, without another call', () => {
    let now = 0;
    const store = createMemoryReplayStore({ now: () => now });
    for (let i = 0; i < 1000; i++) store.claim(`n${i}`, 900_000);
    for (let i = 0; i < 1000; i++) store.complete(`d${i}`, (store.begin(`d${i}`, 30_000) as { token: string }).token, 86_400_000);
    expect(store.size).toBe(2000);
    now = 86_400_000;
    expect(store.size).toBe(0);
  });

  it('a short lease written after a long ttl is dropped when it expires (mixed durations never hold memory back)', () => {
    let now = 0;
    const store = createMemoryReplayStore({ now: () => now });
    store.complete('done', (store.begin('done', 10) as { token: string }).token, 86_400_000);
    for (let i = 0; i < 100; i++) store.begin(`lease${i}`, 5_000);
    expect(store.size).toBe(101);
    now = 5_000;
    expect(store.size).toBe(1);
    store.begin('another', 5_000);
    expect(store.size).toBe(2);
  });
});

describe('createMemoryReplayStore: two-phase sends (reserved, then sending)', () => {
  const lease = 5_000;
  const day = 86_400_000;
  const begun = (store: ReturnType<typeof createMemoryReplayStore>, key: string) => {
    const b = store.begin(key, lease);
    expect(b.state).toBe('started');
    return (b as { token: string }).token;
  };

  it('a reservation that never reached sending is free again after its short lease', () => {
    let now = 0;
    const store = createMemoryReplayStore({ now: () => now });
    begun(store, 'k'); // its holder never heard back (a lost reply) or died before sending
    expect(store.begin('k', lease)).toEqual({ state: 'in_progress' });
    expect(store.inspect('k')).toEqual({ state: 'reserved', expiresAt: lease });
    now = lease;
    expect(store.begin('k', lease).state).toBe('started');
  });

  it('sending holds the key past the lease; a holder that stops renewing is stalled, never free before the ttl', () => {
    let now = 0;
    const store = createMemoryReplayStore({ now: () => now });
    const token = begun(store, 'k');
    now = 100;
    expect(store.sending('k', token, lease, day)).toBe(true);
    expect(store.begin('k', lease)).toEqual({ state: 'in_progress', phase: 'sending' });
    now = 3_000;
    expect(store.sending('k', token, lease, day)).toBe(true); // renewed: lease until 8 000
    now = 7_999;
    expect(store.begin('k', lease)).toEqual({ state: 'in_progress', phase: 'sending' });
    expect(store.inspect('k')).toEqual({ state: 'sending', expiresAt: 100 + day, sendingSince: 100, leaseUntil: 8_000 });
    now = 8_000; // the holder died: no renewal
    expect(store.begin('k', lease)).toEqual({ state: 'in_progress', phase: 'stalled' });
    expect(store.inspect('k')?.state).toBe('stalled');
    now = 100 + day - 1;
    expect(store.begin('k', lease)).toEqual({ state: 'in_progress', phase: 'stalled' });
    now = 100 + day;
    expect(store.begin('k', lease).state).toBe('started');
  });

  it('only the holder marks or renews; complete settles a sending key; abandon frees it for its holder only', () => {
    let now = 0;
    const store = createMemoryReplayStore({ now: () => now });
    const token = begun(store, 'k');
    expect(store.sending('k', 'm999', lease, day)).toBe(false);
    expect(store.sending('other', token, lease, day)).toBe(false);
    expect(store.sending('k', token, lease, day)).toBe(true);
    expect(store.abandon('k', 'm999')).toBe(false);
    expect(store.abandon('k', token)).toBe(true);
    const again = begun(store, 'k');
    expect(store.sending('k', token, lease, day)).toBe(false); // the old token holds nothing
    expect(store.sending('k', again, lease, day)).toBe(true);
    expect(store.complete('k', again, day, '{"r":1}')).toBe(true);
    expect(store.begin('k', lease)).toEqual({ state: 'done', value: '{"r":1}' });
    expect(store.inspect('k')).toEqual({ state: 'done', expiresAt: day, value: '{"r":1}' });
    expect(store.sending('k', again, lease, day)).toBe(false); // done stays done
    now = lease; // a reservation that expired cannot be marked as sending any more
    const late = begun(store, 'late');
    now += lease;
    expect(store.sending('late', late, lease, day)).toBe(false);
  });

  it('release forgets a key whatever its state; inspect of an unknown key is undefined', () => {
    const store = createMemoryReplayStore({ now: () => 0 });
    expect(store.inspect('k')).toBeUndefined();
    expect(store.release('k')).toBe(false);
    const token = begun(store, 'k');
    store.sending('k', token, lease, day);
    expect(store.release('k')).toBe(true);
    expect(store.inspect('k')).toBeUndefined();
    expect(store.begin('k', lease).state).toBe('started');
    expect(store.size).toBe(1);
  });
});

describe('sha256Hex', () => {
  it('matches the SHA-256 test vector of "abc" for text and bytes', () => {
    const abc = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';
    expect(sha256Hex('abc')).toBe(abc);
    expect(sha256Hex(new TextEncoder().encode('abc'))).toBe(abc);
  });
});

import { describe, expect, it } from 'vitest';
import { createMemoryReplayStore, sha256Hex } from '../src/index.js';

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

  it('rejects a non-positive cap', () => {
    expect(() => createMemoryReplayStore({ maxEntries: 0 })).toThrow(RangeError);
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

  it('complete and abandon only touch the mark this delivery owns', () => {
    let now = 0;
    const store = createMemoryReplayStore({ now: () => now });
    const stale = store.begin('d', lease) as { token: string };
    now = lease; // the first lease expired; another delivery took over
    const current = store.begin('d', lease) as { token: string };
    expect(store.abandon('d', stale.token)).toBe(false);
    expect(store.complete('d', stale.token, day)).toBe(false);
    expect(store.begin('d', lease)).toEqual({ state: 'in_progress' });
    expect(store.complete('d', current.token, day)).toBe(true);
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

describe('sha256Hex', () => {
  it('matches the SHA-256 test vector of "abc" for text and bytes', () => {
    const abc = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';
    expect(sha256Hex('abc')).toBe(abc);
    expect(sha256Hex(new TextEncoder().encode('abc'))).toBe(abc);
  });
});

import { describe, expect, it } from 'vitest';
import { createMemoryReplayStore } from '../src/index.js';

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

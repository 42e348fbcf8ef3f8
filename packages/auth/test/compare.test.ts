import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { timingSafeEqual } from '../src/protocol.js';

describe('timingSafeEqual', () => {
  it('is string equality, for any strings', () => {
    fc.assert(fc.property(fc.string(), fc.string(), (a, b) => timingSafeEqual(a, b) === (a === b)));
    fc.assert(fc.property(fc.string(), (a) => timingSafeEqual(a, a.slice(0))));
  });

  it('takes two strings and nothing else: a third argument (the former offset) is not read', () => {
    const compare = timingSafeEqual as (a: string, b: string, from?: number) => boolean;
    expect(compare('TSA id:c2ln', 'c2ln', 7)).toBe(false);
    expect(timingSafeEqual.length).toBe(2);
  });

  it('refuses what is not a string, never throws', () => {
    expect(timingSafeEqual(undefined as unknown as string, '')).toBe(false);
    expect(timingSafeEqual('', null as unknown as string)).toBe(false);
  });
});

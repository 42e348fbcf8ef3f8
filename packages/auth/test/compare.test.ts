import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { timingSafeEqual } from '../src/protocol.js';

describe('timingSafeEqual', () => {
  it('is string equality, for any strings', () => {
    fc.assert(fc.property(fc.string(), fc.string(), (a, b) => timingSafeEqual(a, b) === (a === b)));
    fc.assert(fc.property(fc.string(), (a) => timingSafeEqual(a, a.slice(0))));
  });

  it('with from: whether a from that index on equals b, without slicing (a signature inside a header)', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.nat(40), (head, b, cut) => {
        const a = head + b;
        expect(timingSafeEqual(a, b, head.length)).toBe(true);
        expect(timingSafeEqual(a, b, cut)).toBe(a.slice(cut) === b && cut <= a.length);
      }),
    );
    expect(timingSafeEqual('TSA id:c2ln', 'c2ln', 7)).toBe(true);
    expect(timingSafeEqual('TSA id:c2lnX', 'c2ln', 7)).toBe(false); // longer
    expect(timingSafeEqual('TSA id:c2l', 'c2ln', 7)).toBe(false); // shorter
  });

  it('refuses what is not a string or an index, never throws', () => {
    for (const from of [-1, 1.5, Number.NaN, Infinity]) expect(timingSafeEqual('abc', 'bc', from)).toBe(false);
    expect(timingSafeEqual(undefined as unknown as string, '')).toBe(false);
    expect(timingSafeEqual('', null as unknown as string)).toBe(false);
  });
});

// `updated_on` and `submit_timestamp`: RFC 3339 with microseconds, as the service prints them. The
// date and time up to the second are formatted once per second; every millisecond must still come
// out exactly as toISOString formats it, whatever order the instants come in.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { timestamp } from '../src/service/status.js';

const reference = (ms: number) => `${new Date(ms).toISOString().slice(0, -1)}000Z`;
const MAX = 8.64e15; // the largest time value a Date holds

describe('timestamp', () => {
  it('formats any instant as toISOString does, with microseconds, in any order (same second, next second, back in time)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.integer({ min: -MAX, max: MAX }), fc.integer({ min: 1_700_000_000_000, max: 1_700_000_003_000 }), fc.double({ min: 0, max: 4e12, noNaN: true })), { minLength: 1, maxLength: 20 }), (instants) => {
        for (const ms of instants) expect(timestamp(ms)).toBe(reference(ms));
      }),
      { numRuns: 500 },
    );
  });

  it('keeps the shape the service prints', () => {
    expect(timestamp(Date.UTC(2026, 0, 2, 3, 4, 5, 67))).toBe('2026-01-02T03:04:05.067000Z');
    expect(timestamp(Date.UTC(2026, 0, 2, 3, 4, 5, 999))).toBe('2026-01-02T03:04:05.999000Z');
    expect(timestamp(Date.UTC(2026, 0, 2, 3, 4, 6, 0))).toBe('2026-01-02T03:04:06.000000Z');
  });

  it('refuses an invalid time as toISOString does', () => {
    expect(() => timestamp(Number.NaN)).toThrow(RangeError);
  });
});

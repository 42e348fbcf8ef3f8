// parseHttpDate over the shape toUTCString() prints, with any names and digits: the answer does
// not depend on the spaces after the comma, every date toUTCString() prints reads back, and
// impossible dates (31 February, 29 February outside leap years, 24:00) are refused.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseHttpDate } from '../src/protocol.js';

const two = fc.integer({ min: 0, max: 99 }).map((n) => String(n).padStart(2, '0'));
const names = (list: string[]) => fc.oneof({ arbitrary: fc.constantFrom(...list), weight: 4 }, fc.constantFrom(...list).map((s) => s.toUpperCase()), fc.string({ minLength: 3, maxLength: 3 }));
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** `Www, DD Mmm YYYY HH:MM:SS GMT` with any names and any two digits (valid dates or not). */
const utcShaped = fc
  .tuple(names(WEEKDAYS), two, names(MONTHS), fc.oneof(fc.integer({ min: 0, max: 150 }), fc.integer({ min: 900, max: 1100 }), fc.integer({ min: 0, max: 9999 })), two, two, two, fc.constantFrom('GMT', 'gmt', 'UTC'))
  .map(([w, d, m, y, h, mi, s, z]) => `${w}, ${d} ${m} ${String(y).padStart(4, '0')} ${h}:${mi}:${s} ${z}`);

describe('parseHttpDate', () => {
  it('reads toUTCString()-shaped text the same with one space after the comma or two (valid and invalid dates)', () => {
    fc.assert(
      fc.property(utcShaped, (text) => {
        expect(parseHttpDate(text)).toBe(parseHttpDate(text.replace(', ', ',  ')));
      }),
      { numRuns: 3000 },
    );
  });

  it('gives the time of any date toUTCString() prints (years 1000-9999)', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('1000-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }), (date) => {
        const whole = Math.floor(date.getTime() / 1000) * 1000;
        expect(parseHttpDate(date.toUTCString())).toBe(whole);
      }),
    );
  });

  it('refuses impossible dates and times in that exact shape', () => {
    for (const text of ['Tue, 31 Feb 2026 10:00:00 GMT', 'Tue, 00 Feb 2026 10:00:00 GMT', 'Tue, 10 Feb 2026 24:00:00 GMT', 'Tue, 10 Feb 2026 10:60:00 GMT', 'Tue, 10 Feb 2026 10:00:61 GMT', 'Tue, 10 Fex 2026 10:00:00 GMT', 'Xyz, 10 Feb 2026 10:00:00 GMT', 'Tue, 1a Feb 2026 10:00:00 GMT']) {
      expect(parseHttpDate(text)).toBeUndefined();
    }
    expect(parseHttpDate('Tue, 10 Feb 2026 10:00:60 GMT')).toBe(Date.UTC(2026, 1, 10, 10, 0, 59)); // a leap second, read as :59
    // 29 February: leap years by the Gregorian rule.
    for (const [year, leap] of [[2024, true], [2023, false], [1900, false], [2000, true], [2100, false], [2400, true]] as const) {
      const text = `Thu, 29 Feb ${year} 12:00:00 GMT`;
      expect(parseHttpDate(text)).toBe(leap ? Date.UTC(year, 1, 29, 12) : undefined);
      expect(parseHttpDate(text)).toBe(parseHttpDate(text.replace(', ', ',  ')));
    }
    expect(parseHttpDate('Thu, 31 Apr 2026 12:00:00 GMT')).toBeUndefined();
    expect(parseHttpDate('Thu, 31 Dec 2026 12:00:00 GMT')).toBe(Date.UTC(2026, 11, 31, 12));
  });

  it('answers a date read again as it did the first time, whatever was read in between (the last date is remembered)', () => {
    const texts = fc.oneof(utcShaped, fc.date({ noInvalidDate: true }).map((d) => d.toUTCString()), fc.string({ maxLength: 40 }));
    fc.assert(
      fc.property(fc.array(texts, { minLength: 1, maxLength: 6 }), (list) => {
        const first = list.map((text) => parseHttpDate(text));
        // Each text again, alone and after every other: the same answer.
        for (const [i, text] of list.entries()) {
          expect(parseHttpDate(text)).toBe(first[i]);
          for (const other of list) parseHttpDate(other);
          expect(parseHttpDate(text)).toBe(first[i]);
        }
      }),
      { numRuns: 500 },
    );
    expect(parseHttpDate('Thu, 01 Jan 1970 00:00:00 GMT')).toBe(0);
    expect(parseHttpDate('Thu, 01 Jan 1970 00:00:01 GMT')).toBe(1000);
    expect(parseHttpDate('not a date')).toBeUndefined();
    expect(parseHttpDate('not a date')).toBeUndefined();
    expect(parseHttpDate('Thu, 01 Jan 1970 00:00:01 GMT')).toBe(1000);
  });
});


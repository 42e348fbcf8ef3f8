// Reference ids and verification codes come straight from crypto.getRandomValues (no pool of bytes
// kept between calls). They keep their format, never repeat, and are uniformly distributed: a
// chi-square test per digit and per hex character that a biased generator (e.g. a byte taken
// modulo 10) fails.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { randomDigits, randomHex } from '../src/service/ids.js';

/** Pearson's chi-square statistic of observed counts against a uniform expectation. */
function chiSquare(counts: number[]): number {
  const total = counts.reduce((a, b) => a + b, 0);
  const expected = total / counts.length;
  return counts.reduce((sum, n) => sum + (n - expected) ** 2 / expected, 0);
}
// Critical values at p = 1e-6 (a correct generator fails about once in a million runs).
const CRITICAL = { 9: 44.9, 15: 58.1 } as const;

afterEach(() => vi.restoreAllMocks());

describe('randomHex (reference ids)', () => {
  it('is 32 upper-case hex characters for 16 bytes, and never repeats', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 50_000; i++) {
      const id = randomHex(16);
      expect(id).toMatch(/^[0-9A-F]{32}$/);
      seen.add(id);
    }
    expect(seen.size).toBe(50_000);
    expect(randomHex(24)).toMatch(/^[0-9A-F]{48}$/);
    expect(randomHex(4099)).toMatch(/^[0-9A-F]{8198}$/);
  });

  it('draws its bytes from crypto at each call, exactly as many as it needs (no bytes kept between calls)', () => {
    const spy = vi.spyOn(globalThis.crypto, 'getRandomValues');
    randomHex(16);
    randomHex(16);
    expect(spy.mock.calls.map(([array]) => (array as Uint8Array).length)).toEqual([16, 16]);
  });

  it('every hex character is equally likely, at every position (chi-square)', () => {
    const n = 40_000;
    const overall = new Array<number>(16).fill(0);
    const first = new Array<number>(16).fill(0);
    const last = new Array<number>(16).fill(0);
    for (let i = 0; i < n; i++) {
      const id = randomHex(16);
      for (const ch of id) overall[parseInt(ch, 16)]!++;
      first[parseInt(id[0]!, 16)]!++;
      last[parseInt(id[31]!, 16)]!++;
    }
    expect(chiSquare(overall)).toBeLessThan(CRITICAL[15]);
    expect(chiSquare(first)).toBeLessThan(CRITICAL[15]);
    expect(chiSquare(last)).toBeLessThan(CRITICAL[15]);
  });
});

describe('randomDigits (verification codes)', () => {
  it('is `length` decimal digits', () => {
    for (const length of [1, 5, 6, 7, 10, 64]) expect(randomDigits(length)).toMatch(new RegExp(`^\\d{${length}}$`));
  });

  it('every digit is equally likely, at every position (chi-square)', () => {
    // 600 000 digits: enough for a byte-modulo-10 bias (26/256 against 25/256) to give a statistic above 200.
    const codes = 100_000;
    const overall = new Array<number>(10).fill(0);
    const byPosition = Array.from({ length: 6 }, () => new Array<number>(10).fill(0));
    for (let i = 0; i < codes; i++) {
      const code = randomDigits(6);
      [...code].forEach((d, at) => {
        overall[Number(d)]!++;
        byPosition[at]![Number(d)]!++;
      });
    }
    expect(chiSquare(overall)).toBeLessThan(CRITICAL[9]);
    for (const counts of byPosition) expect(chiSquare(counts)).toBeLessThan(CRITICAL[9]);
  });

  it('the chi-square check catches a biased generator (a byte modulo 10)', () => {
    const counts = new Array<number>(10).fill(0);
    for (let i = 0; i < 12; i++) for (const b of crypto.getRandomValues(new Uint8Array(50_000))) counts[b % 10]!++;
    expect(chiSquare(counts)).toBeGreaterThan(CRITICAL[9]);
  });
});

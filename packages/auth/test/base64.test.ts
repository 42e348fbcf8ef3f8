import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBase64, encodeBase64 } from '../src/protocol.js';

describe('base64', () => {
  it('round-trips arbitrary bytes and matches btoa', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), (bytes) => {
        const text = encodeBase64(bytes);
        expect(text).toBe(btoa(String.fromCharCode(...bytes)));
        expect(decodeBase64(text)).toEqual(bytes);
      }),
    );
  });

  it('never throws, and accepts a text only when it is the canonical encoding of what it decodes to', () => {
    const alphabet = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_ \né'.split(''));
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: alphabet, maxLength: 24 })), (text) => {
        const bytes = decodeBase64(text);
        if (bytes) expect(encodeBase64(bytes)).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });

  it('never throws on what is not a string, and decodes none of it', () => {
    const junk: unknown[] = [undefined, null, 0, 1234, true, {}, [], Symbol('x'), { toString: () => 'aGk=' }, { toString: () => { throw new Error('boom'); } }, 10n];
    for (const value of junk) expect(decodeBase64(value as string)).toBeUndefined();
  });

  it('encodes long input (several internal chunks) exactly as Node Buffer does', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 6000, maxLength: 20_000 }), (bytes) => {
        expect(encodeBase64(bytes)).toBe(Buffer.from(bytes).toString('base64'));
      }),
      { numRuns: 30 },
    );
    for (const length of [6143, 6144, 6145, 12_288, 12_289]) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 7) & 255);
      expect(encodeBase64(bytes)).toBe(Buffer.from(bytes).toString('base64'));
      expect(decodeBase64(encodeBase64(bytes))).toEqual(bytes);
    }
  });

  it.each([
    ['unpadded', 'YQ'],
    ['bad length', 'YWJjZA='],
    ['url-safe alphabet', 'a-_b'],
    ['white space', 'YWJj ZA=='],
    ['padding in the middle', 'YQ==YQ=='],
    ['non-zero padding bits (1 pad)', 'YWJ='],
    ['non-zero padding bits (2 pads)', 'YR=='],
    ['three pads', 'Y==='],
    ['non-ASCII', 'YWJjé==='],
  ])('rejects %s', (_name, text) => {
    expect(decodeBase64(text)).toBeUndefined();
  });
});

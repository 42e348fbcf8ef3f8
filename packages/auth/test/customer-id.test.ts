// Customer ids a header can carry: visible ASCII without ":" (the TSA header is
// `TSA <customerId>:<signature>`; Basic splits at the first ":"). Anything else is refused where
// credentials are checked, naming the position; a verifier never throws on such an id in a header.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { thrown } from '../../../testing/support.js';
import { AuthError, basicAuthorization, callbackHeaders, createSigner, verifyRequest, type VerifyOptions } from '../src/index.js';

const apiKey = 'c2VjcmV0LWtleS1ieXRlcw==';
const GOOD = 'FFFFFFFF-EEEE-DDDD-1234-AB1234567890';
/** One character (never a lone surrogate) between two code points. */
const codePoint = (min: number, max: number) => fc.integer({ min, max }).filter((c) => c < 0xd800 || c > 0xdfff).map((c) => String.fromCodePoint(c));
const visible = (char: string) => char >= '!' && char <= '~' && char !== ':';

// Characters no header carries, or that the headers read as separators.
const BAD: [string, string][] = [
  ['a zero-width space', '\u200b'],
  ['a NUL', '\u0000'],
  ['a line feed', '\n'],
  ['a carriage return', '\r'],
  ['a tab', '\t'],
  ['a space', ' '],
  ['DEL', '\u007f'],
  ['a no-break space', '\u00a0'],
  ['a Latin-1 letter', 'é'],
  ['a non-Latin-1 letter', 'ж'],
  ['an emoji', '😀'],
  ['a colon', ':'],
];

describe('a customer id must be visible ASCII without ":"', () => {
  for (const [name, char] of BAD) {
    it(`${name} at position 9 is refused by the signer, Basic and callback headers, naming the position`, () => {
      const customerId = `${GOOD.slice(0, 8)}${char}${GOOD.slice(8)}`;
      for (const make of [() => createSigner({ customerId, apiKey }), () => basicAuthorization({ customerId, apiKey }), () => callbackHeaders('{}', { customerId, apiKey })]) {
        const error = thrown(make) as AuthError;
        expect(error).toBeInstanceOf(AuthError);
        expect(error.code).toBe('invalid_customer_id');
        expect(error.message).toMatch(/position 9\b/);
        expect(error.message).toMatch(/visible ASCII/);
      }
    });
  }

  it('white space is called white space', () => {
    expect(thrown(() => createSigner({ customerId: 'has space', apiKey })).message).toMatch(/white space/);
  });

  it('property: an id is refused exactly when it has a character outside visible ASCII or a ":", and the first one is named', () => {
    // Mostly ASCII (each edge: space, "~", DEL, ":"), some Latin-1, some anything.
    const char = fc.oneof({ arbitrary: codePoint(0, 0x7f), weight: 6 }, codePoint(0x80, 0xff), codePoint(0x100, 0x10ffff), fc.constantFrom(...BAD.map(([, c]) => c)));
    fc.assert(
      fc.property(fc.array(char, { minLength: 1, maxLength: 40 }), (chars) => {
        const customerId = chars.join('');
        if (customerId.trim() === '') return; // empty: missing_credentials, tested elsewhere
        const first = [...customerId].findIndex((c) => !visible(c));
        if (first === -1) {
          expect(() => basicAuthorization({ customerId, apiKey })).not.toThrow();
          return;
        }
        const error = thrown(() => basicAuthorization({ customerId, apiKey })) as AuthError;
        expect(error.code).toBe('invalid_customer_id');
        expect(error.message).toContain(`position ${first + 1}:`);
      }),
      { numRuns: 1000 },
    );
  });

  it('property: verifyRequest never throws on any customer id in a TSA header, even when the lookup names none', async () => {
    // A lookup (from JavaScript) that names no customer id: the id of the header is used.
    const lookup = (() => ({ apiKey })) as unknown as VerifyOptions['credentials'];
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: fc.oneof(codePoint(0, 0x7f), codePoint(0x80, 0x10ffff)), minLength: 1, maxLength: 40 }), async (id) => {
        const headers = { authorization: `TSA ${id}:c2lnbmF0dXJl`, 'x-ts-auth-method': 'HMAC-SHA256', 'x-ts-date': new Date().toUTCString() };
        const result = await verifyRequest({ method: 'GET', url: '/v1/x', headers }, { credentials: lookup });
        expect(result.ok).toBe(false);
      }),
      { numRuns: 500 },
    );
  });
});

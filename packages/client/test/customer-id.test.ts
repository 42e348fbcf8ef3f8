// A customer id that no header can carry is refused by createClient, naming where it goes wrong,
// instead of every request failing later as a network_error (and GETs being tried three times).
import { describe, expect, it } from 'vitest';
import { thrown } from '../../../testing/support.js';
import { ConfigurationError, createClient, fromEnv, type CreateClientOptions } from '../src/index.js';

const apiKey = btoa('a key of sixteen');
const GOOD = 'FFFFFFFF-EEEE-DDDD-1234-AB1234567890';

const BAD: [string, string][] = [
  ['a zero-width space', '\u200b'],
  ['a control character', '\u0007'],
  ['a line feed', '\n'],
  ['a space', ' '],
  ['a Latin-1 letter', 'é'],
  ['a non-Latin-1 letter', 'ж'],
  ['a colon', ':'],
];

describe('createClient refuses a customer id no header can carry', () => {
  for (const [name, char] of BAD) {
    const customerId = `${GOOD.slice(0, 8)}${char}${GOOD.slice(8)}`;
    const ways: [string, () => unknown][] = [
      ['digest', () => createClient({ customerId, apiKey, baseUrl: 'http://127.0.0.1:9' })],
      ['basic', () => createClient({ customerId, apiKey, auth: 'basic', baseUrl: 'http://127.0.0.1:9' })],
      ['X_CUSTOMER_ID', () => createClient({ ...(fromEnv({ X_CUSTOMER_ID: customerId, X_API_KEY: apiKey }) as CreateClientOptions), baseUrl: 'http://127.0.0.1:9' })],
      ['products.verifyApi', () => createClient({ customerId: GOOD, apiKey, products: { verifyApi: { customerId, apiKey } } })],
    ];
    for (const [way, make] of ways) {
      it(`${name} (${way}): a ConfigurationError naming position 9, at creation`, () => {
        const error = thrown(make);
        expect(error).toBeInstanceOf(ConfigurationError);
        expect(error.message).toMatch(/customerId has .* at position 9:/);
        expect(error.message).toMatch(/visible ASCII/);
      });
    }
  }

  it('the ids the service issues (UUID-shaped, either case) are accepted', () => {
    expect(() => createClient({ customerId: GOOD, apiKey })).not.toThrow();
    expect(() => createClient({ customerId: GOOD.toLowerCase(), apiKey })).not.toThrow();
  });
});

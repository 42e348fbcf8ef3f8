// Secrets in errors: verification codes and URL credentials appear in no field of an error the
// client throws (enumerable or not), however it is printed: console.error / util.inspect,
// JSON.stringify, a pino-style serializer, the cause chain.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigurationError, createClient, fromEnv } from '../src/index.js';
import { printed } from './printed.js';

const customer = { customerId: 'FFFFFFFF-EEEE-DDDD-1234-AB1234567890', apiKey: btoa('a key of sixteen') };
const thrown = (f: () => unknown): unknown => {
  try {
    f();
  } catch (error) {
    return error;
  }
  return expect.fail('expected a throw');
};

// Base URLs with credentials that the URL parser refuses (Node's ERR_INVALID_URL keeps them in `input`).
const BROKEN = ['https://admin:PASSWORD@[::1', 'https://admin:PASSWORD@[::1]:99999/', 'https://admin:PASSWORD@exa mple.com', 'http://admin:PASSWORD@host:port', 'https://admin:PASSWORD@[zz]', 'https://admin:PASSWORD@%zz'];

describe('a base URL with credentials that does not parse', () => {
  it('https://admin:pw@[::1: a ConfigurationError whose message and cause show neither the URL nor the password', () => {
    const error = thrown(() => createClient({ ...customer, baseUrl: 'https://admin:pw-s3cret@[::1' }));
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toMatch(/baseUrl/);
    expect(printed(error)).not.toContain('s3cret');
    expect(printed(error)).not.toContain('admin');
  });

  it('property: any password, in any unparseable URL, through createClient, products and X_BASE_URL', () => {
    const password = fc.stringMatching(/^[A-Za-z0-9_~-]{6,24}$/).map((p) => `Pw${p}`);
    fc.assert(
      fc.property(password, fc.constantFrom(...BROKEN), fc.constantFrom('baseUrl', 'products', 'env'), (secret, shape, where) => {
        const url = shape.replace('PASSWORD', secret);
        const error = thrown(() => {
          if (where === 'env') return fromEnv({ X_BASE_URL: url });
          if (where === 'products') return createClient({ ...customer, products: { verifyApi: { baseUrl: url } } });
          return createClient({ ...customer, baseUrl: url });
        });
        expect(error).toBeInstanceOf(ConfigurationError);
        expect(printed(error)).not.toContain(secret);
      }),
      { numRuns: 200 },
    );
  });

  it('a base URL with credentials that parses is refused without showing them either', () => {
    const error = thrown(() => createClient({ ...customer, baseUrl: 'https://admin:pw-s3cret@example.com/' }));
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(printed(error)).not.toContain('s3cret');
  });
});

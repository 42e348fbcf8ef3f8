// The pure HMAC (keyed states prepared once and copied, text encoded into a reused buffer, digest
// into a reused array) against node:crypto as the oracle: any key length (shorter, equal to and
// longer than a block), any mix of text and byte parts, text beyond the reused buffer's size.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSigner, prepareMac } from '../src/index.js';
import { nodeMac } from '../src/node/index.js';

const key = fc.uint8Array({ minLength: 1, maxLength: 200 });
const part = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.uint8Array({ maxLength: 300 }),
  fc.string({ unit: 'grapheme', minLength: 6000, maxLength: 9000 }), // more than 16 384 UTF-16 units now and then
);

describe('pure HMAC', () => {
  it('equals node:crypto for any key and parts, both algorithms', () => {
    fc.assert(
      fc.property(fc.constantFrom('HMAC-SHA256' as const, 'HMAC-SHA1' as const), key, fc.array(part, { maxLength: 4 }), (algorithm, bytes, parts) => {
        expect(prepareMac(algorithm, bytes)(parts)).toBe(nodeMac(algorithm, bytes)(parts));
      }),
      { numRuns: 150 },
    );
  });

  it('gives the same answer when called again and interleaved with other keys (no state leaks between calls)', () => {
    const a = prepareMac('HMAC-SHA256', new Uint8Array(70).fill(1));
    const b = prepareMac('HMAC-SHA256', new Uint8Array(10).fill(2));
    const first = a(['x'.repeat(200), 'é']);
    expect(b(['y'])).toBe(nodeMac('HMAC-SHA256', new Uint8Array(10).fill(2))(['y']));
    expect(a(['x'.repeat(200), 'é'])).toBe(first);
    expect(first).toBe(nodeMac('HMAC-SHA256', new Uint8Array(70).fill(1))(['x'.repeat(200), 'é']));
  });

  it('the default signer and a nodeMac signer produce the same headers', () => {
    const credentials = { customerId: 'c', apiKey: 'c2VjcmV0LWtleS1ieXRlcw==' };
    const pure = createSigner(credentials);
    const native = createSigner(credentials, { mac: nodeMac });
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 500 }), (body) => {
        const request = { method: 'POST', url: '/v1/messaging', contentType: 'application/json', body };
        const fixed = { date: 'Wed, 14 Dec 2016 18:20:12 GMT', nonce: 'abcd-1234' };
        expect(pure.sign(request, fixed)).toEqual(native.sign(request, fixed));
      }),
    );
  });
});

// The pure HMAC (keyed states prepared once and copied, text encoded into a reused buffer, digest
// into a reused array) against node:crypto as the oracle: any key length (shorter, equal to and
// longer than a block), any mix of text and byte parts, text beyond the reused buffer's size.
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSigner, prepareMac } from '../src/index.js';
import { hmacObject, nodeOneShot, oneShotHmac } from '../src/node/hmac.js';
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

/** The oracle: node:crypto's Hmac over the parts, exactly as given. */
const oracle = (algorithm: 'HMAC-SHA256' | 'HMAC-SHA1', key: Uint8Array, parts: ReadonlyArray<string | Uint8Array>) => {
  const hmac = createHmac(algorithm === 'HMAC-SHA1' ? 'sha1' : 'sha256', key);
  for (const p of parts) hmac.update(p);
  return hmac.digest('base64');
};

describe('nodeMac', () => {
  it('has the one-shot digest on the Node versions this package supports (>= 20.19)', () => {
    expect(typeof nodeOneShot).toBe('function');
  });

  const variants = [
    ['nodeMac', nodeMac],
    ['one-shot digests', (algorithm: 'HMAC-SHA256' | 'HMAC-SHA1', bytes: Uint8Array) => oneShotHmac(algorithm === 'HMAC-SHA1' ? 'sha1' : 'sha256', bytes, nodeOneShot!)],
    ['an Hmac object per call (runtimes without crypto.hash)', (algorithm: 'HMAC-SHA256' | 'HMAC-SHA1', bytes: Uint8Array) => hmacObject(algorithm === 'HMAC-SHA1' ? 'sha1' : 'sha256', bytes)],
  ] as const;

  it.each(variants)('%s equals a node:crypto Hmac for any key and parts, both algorithms', (_name, mac) => {
    fc.assert(
      fc.property(fc.constantFrom('HMAC-SHA256' as const, 'HMAC-SHA1' as const), key, fc.array(part, { maxLength: 4 }), (algorithm, bytes, parts) => {
        expect(mac(algorithm, bytes)(parts)).toBe(oracle(algorithm, bytes, parts));
      }),
      { numRuns: 100 },
    );
  });

  it('keeps giving the right answer as messages grow past its scratch and past what it keeps, then shrink', () => {
    const bytes = new Uint8Array(100).fill(7); // longer than a block: hashed first
    const mac = nodeMac('HMAC-SHA256', bytes);
    for (const size of [0, 1, 1000, 1100, 5000, 30_000, 200_000, 10, 70_000, 3]) {
      const parts = ['a'.repeat(size), new Uint8Array(size % 97).fill(1), '\u{1F600}é\uD800'.repeat(size % 5)];
      expect(mac(parts)).toBe(oracle('HMAC-SHA256', bytes, parts));
    }
  });

  it('gives the same answer when called again and interleaved with other keys', () => {
    const a = nodeMac('HMAC-SHA1', new Uint8Array(64).fill(3));
    const b = nodeMac('HMAC-SHA1', new Uint8Array(1).fill(4));
    const first = a(['x'.repeat(3000)]);
    expect(b(['y'])).toBe(oracle('HMAC-SHA1', new Uint8Array(1).fill(4), ['y']));
    expect(a(['x'.repeat(3000)])).toBe(first);
    expect(first).toBe(oracle('HMAC-SHA1', new Uint8Array(64).fill(3), ['x'.repeat(3000)]));
  });
});

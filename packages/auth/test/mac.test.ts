// Both HMAC paths against node:crypto's Hmac as the oracle: @noble/hashes' public `hmac` and
// node:crypto's `createHmac` (`#hashes` under the `node` condition, and nodeMac): any key length (shorter,
// equal to and longer than a block), any mix of text and byte parts, long text, both algorithms.
import { createHash, createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { createSigner, prepareMac, type PreparedMac } from '../src/index.js';
import { sha256Hex } from '../src/protocol.js';
import * as pure from '../src/hashes.js';
import * as native from '../src/node/hashes.js';
import { nodeMac } from '../src/node/index.js';

type Algorithm = 'HMAC-SHA256' | 'HMAC-SHA1';
const key = fc.uint8Array({ minLength: 1, maxLength: 200 });
const part = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.uint8Array({ maxLength: 300 }),
  fc.string({ unit: 'grapheme', minLength: 6000, maxLength: 9000 }), // more than 16 384 UTF-16 units now and then
);

/** The oracle: node:crypto's Hmac over the parts, exactly as given. */
const oracle = (algorithm: Algorithm, key: Uint8Array, parts: ReadonlyArray<string | Uint8Array>) => {
  const hmac = createHmac(algorithm === 'HMAC-SHA1' ? 'sha1' : 'sha256', key);
  for (const p of parts) hmac.update(p);
  return hmac.digest('base64');
};

const pureMac = (algorithm: Algorithm, bytes: Uint8Array): PreparedMac => (algorithm === 'HMAC-SHA1' ? pure.hmacSha1 : pure.hmacSha256)(bytes);
const variants = [
  ['the pure HMAC (@noble/hashes)', pureMac],
  ['prepareMac (node:crypto under the node condition)', prepareMac],
  ['nodeMac', nodeMac],
] as const;

describe.each(variants)('%s', (_name, mac) => {
  it('equals a node:crypto Hmac for any key and parts, both algorithms', () => {
    fc.assert(
      fc.property(fc.constantFrom('HMAC-SHA256' as const, 'HMAC-SHA1' as const), key, fc.array(part, { maxLength: 4 }), (algorithm, bytes, parts) => {
        expect(mac(algorithm, bytes)(parts)).toBe(oracle(algorithm, bytes, parts));
      }),
      { numRuns: 100 },
    );
  });

  it('gives the same answer when called again and interleaved with other keys (no state leaks between calls)', () => {
    for (const algorithm of ['HMAC-SHA256', 'HMAC-SHA1'] as const) {
      const a = mac(algorithm, new Uint8Array(70).fill(1)); // longer than a block: hashed first
      const b = mac(algorithm, new Uint8Array(10).fill(2));
      const first = a(['x'.repeat(200), 'é']);
      expect(b(['y'])).toBe(oracle(algorithm, new Uint8Array(10).fill(2), ['y']));
      expect(a(['x'.repeat(200), 'é'])).toBe(first);
      expect(first).toBe(oracle(algorithm, new Uint8Array(70).fill(1), ['x'.repeat(200), 'é']));
    }
  });

  it('keeps giving the right answer as messages grow and shrink', () => {
    const prepared = mac('HMAC-SHA256', new Uint8Array(100).fill(7));
    for (const size of [0, 1, 1000, 5000, 30_000, 200_000, 10, 70_000, 3]) {
      const parts = ['a'.repeat(size), new Uint8Array(size % 97).fill(1), '\u{1F600}é\uD800'.repeat(size % 5)];
      expect(prepared(parts)).toBe(oracle('HMAC-SHA256', new Uint8Array(100).fill(7), parts));
    }
  });
});

describe('SHA-256 hex', () => {
  it('both paths equal node:crypto for any text or bytes', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 300 }), fc.string({ unit: 'binary', maxLength: 50 }), fc.uint8Array({ maxLength: 300 })), (data) => {
        const expected = createHash('sha256').update(data).digest('hex');
        expect(pure.sha256Hex(data)).toBe(expected);
        expect(native.sha256Hex(data)).toBe(expected);
        expect(sha256Hex(data)).toBe(expected);
      }),
    );
  });
});

describe('signers', () => {
  it('the default signer, a pure signer and a nodeMac signer produce the same headers', () => {
    const credentials = { customerId: 'c', apiKey: 'c2VjcmV0LWtleS1ieXRlcw==' };
    const signers = [createSigner(credentials), createSigner(credentials, { mac: pureMac }), createSigner(credentials, { mac: nodeMac })];
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 500 }), (body) => {
        const request = { method: 'POST', url: '/v1/messaging', contentType: 'application/json', body };
        const fixed = { date: 'Wed, 14 Dec 2016 18:20:12 GMT', nonce: 'abcd-1234' };
        const [first, ...others] = signers.map((signer) => signer.sign(request, fixed));
        for (const other of others) expect(other).toEqual(first);
      }),
    );
  });
});

describe('standard HMACs, chosen by the export condition', () => {
  it('on Node, every signature is node:crypto createHmac over the parts (no hand-made pads)', () => {
    const nodeCrypto = process.getBuiltinModule('node:crypto');
    const spy = vi.spyOn(nodeCrypto, 'createHmac');
    try {
      const key = new Uint8Array(70).fill(3);
      for (const mac of [prepareMac, nodeMac]) {
        spy.mockClear();
        const signature = mac('HMAC-SHA256', key)(['a', new Uint8Array([1, 2])]);
        expect(spy).toHaveBeenCalledTimes(1);
        expect(spy.mock.calls[0]![0]).toBe('sha256');
        expect(signature).toBe(oracle('HMAC-SHA256', key, ['a', new Uint8Array([1, 2])]));
      }
      spy.mockClear();
      createSigner({ customerId: 'c', apiKey: 'c2VjcmV0LWtleS1ieXRlcw==' }).sign({ method: 'GET', url: '/v1/x' });
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }
  });
});

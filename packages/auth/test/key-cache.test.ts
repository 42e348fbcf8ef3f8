// Key caches live on the objects that own them: a KeyCache is a bounded LRU of prepared
// HMACs that its owner creates and passes; one-off calls (verifyRequest, callbackSignature,
// signRequest without one) keep nothing between calls.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AuthError, callbackSignature, createKeyCache, createSigner, prepareMac, signRequest, verifyRequest, type MacProvider } from '../src/index.js';
import { encodeBase64 } from '../src/protocol.js';

/** A provider that counts how many keys it prepared (by key text). */
function counting() {
  const prepared: string[] = [];
  const mac: MacProvider = (algorithm, key) => {
    prepared.push(`${algorithm} ${encodeBase64(key)}`);
    return prepareMac(algorithm, key);
  };
  return { mac, prepared };
}

const keyOf = (n: number) => encodeBase64(new Uint8Array(32).fill(n));
const credentialsOf = (n: number) => ({ customerId: `customer-${n}`, apiKey: keyOf(n) });
const date = new Date('2026-01-01T00:00:00Z');

function signed(n: number) {
  const request = { method: 'POST', url: '/v1/messaging', contentType: 'application/json', body: '{"n":' + n + '}' };
  return { ...request, headers: signRequest(request, credentialsOf(n), { date }).headers };
}

describe('createKeyCache: a bounded LRU of prepared HMACs, owned by whoever holds it', () => {
  it('prepares a key once per algorithm and reuses it', () => {
    const { mac, prepared } = counting();
    const cache = createKeyCache({ mac });
    const a = cache.mac('HMAC-SHA256', keyOf(1));
    expect(cache.mac('HMAC-SHA256', keyOf(1))).toBe(a);
    cache.mac('HMAC-SHA1', keyOf(1));
    expect(prepared).toEqual([`HMAC-SHA256 ${keyOf(1)}`, `HMAC-SHA1 ${keyOf(1)}`]);
    expect(cache.size).toBe(1);
  });

  it('never holds more than its limit, and evicts the least recently used key', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 60 }), (limit, uses) => {
        const { mac, prepared } = counting();
        const cache = createKeyCache({ mac, limit });
        const model: number[] = []; // most recent last
        let expected = 0;
        for (const n of uses) {
          const at = model.indexOf(n);
          if (at === -1) {
            expected++;
            if (model.length === limit) model.shift();
          } else model.splice(at, 1);
          model.push(n);
          cache.mac('HMAC-SHA256', keyOf(n));
          expect(cache.size).toBe(model.length);
        }
        expect(prepared.length).toBe(expected);
      }),
    );
  });

  it('refuses a limit that is not a positive integer, with a typed error', () => {
    expect(() => createKeyCache({ limit: 0 })).toThrow(AuthError);
    expect(() => createKeyCache({ limit: 1.5 })).toThrow(/limit/);
  });

  it('an undecodable key is a typed error and is not cached', () => {
    const cache = createKeyCache();
    expect(() => cache.mac('HMAC-SHA256', 'not base64!')).toThrow(AuthError);
    expect(cache.size).toBe(0);
  });
});

describe('one-off calls keep no keys between calls', () => {
  it('verifyRequest without a keyCache prepares the key on each call', async () => {
    const { mac, prepared } = counting();
    const options = { credentials: (id: string) => (id === 'customer-1' ? credentialsOf(1) : undefined), mac, now: () => date };
    expect((await verifyRequest(signed(1), options)).ok).toBe(true);
    expect((await verifyRequest(signed(1), options)).ok).toBe(true);
    expect(prepared).toHaveLength(2);
  });

  it('verifyRequest with a keyCache prepares each key once, and at most `limit` keys are held for a lookup of many customers', async () => {
    const { mac, prepared } = counting();
    const keyCache = createKeyCache({ mac, limit: 4 });
    const options = { credentials: (id: string) => credentialsOf(Number(id.slice('customer-'.length))), keyCache, now: () => date };
    for (let round = 0; round < 3; round++) expect((await verifyRequest(signed(1), options)).ok).toBe(true);
    expect(prepared).toHaveLength(1);
    for (let n = 2; n < 40; n++) expect((await verifyRequest(signed(n), options)).ok).toBe(true);
    expect(keyCache.size).toBe(4);
    expect(prepared).toHaveLength(39);
  });

  it('callbackSignature prepares the key on each call (no hidden cache)', () => {
    const { mac, prepared } = counting();
    const a = callbackSignature('{"a":1}', keyOf(3), mac);
    expect(callbackSignature('{"a":1}', keyOf(3), mac)).toBe(a);
    expect(prepared).toHaveLength(2);
  });

  it('signRequest gives the same headers as a held signer', () => {
    const request = { method: 'GET', url: '/v1/messaging/x' };
    const fixed = { date, nonce: 'abcd-1234' };
    expect(signRequest(request, credentialsOf(5), fixed)).toEqual(createSigner(credentialsOf(5)).sign(request, fixed));
  });
});

import { describe, expect, it } from 'vitest';
import digest from '../vectors/digest.json' with { type: 'json' };
import callback from '../vectors/callback.json' with { type: 'json' };
import { callbackHeaders, callbackSignature, createSigner, enableSha1, signRequest, verifyRequest, type SignableRequest, type SignOptions } from '../src/index.js';
import { parseHttpDate, resourceOf, stringToSignParts } from '../src/protocol.js';

// Signing with HMAC-SHA1 is opt-in (test/sha1.test.ts pins that); these vectors cover both algorithms.
enableSha1();

const credentials = { customerId: digest.customerId, apiKey: digest.apiKey };
const decoder = new TextDecoder();

describe('golden vectors (computed with Python hmac, see vectors/generate.py)', () => {
  for (const raw of digest.vectors) {
    const vector = { ...raw, request: raw.request as SignableRequest & { url: string; body?: string; headers?: Record<string, string> } };
    const options = vector.options as SignOptions;
    describe(vector.name, () => {
      it('builds the expected string to sign (canonical stage)', () => {
        const ts: Record<string, string> = { 'x-ts-auth-method': options.algorithm! };
        if (options.dateHeader === 'x-ts-date') ts['x-ts-date'] = options.date as string;
        if (options.nonce) ts['x-ts-nonce'] = options.nonce;
        Object.assign(ts, vector.request.headers ?? {});
        const parts = stringToSignParts({
          method: vector.request.method,
          contentType: vector.request.contentType,
          date: options.dateHeader === 'date' ? (options.date as string) : undefined,
          tsHeaders: ts,
          body: vector.request.body,
          resource: resourceOf(vector.request.url),
        });
        expect(parts.map((p) => decoder.decode(p)).join('')).toBe(vector.expected.stringToSign);
      });

      it('produces the expected signature and Authorization header', () => {
        const signed = signRequest(vector.request, credentials, options);
        expect(signed.stringToSign).toBe(vector.expected.stringToSign);
        expect(signed.headers.authorization).toBe(vector.expected.authorization);
      });

      it('signs a byte body exactly like the same text', () => {
        if (vector.request.body === undefined) return expect(vector.request.body).toBeUndefined();
        const bytes = new TextEncoder().encode(vector.request.body);
        const signed = createSigner(credentials).sign({ ...vector.request, body: bytes }, options);
        expect(signed.headers.authorization).toBe(vector.expected.authorization);
      });

      it('is accepted by verifyRequest at the signing time', async () => {
        const signed = signRequest(vector.request, credentials, options);
        const result = await verifyRequest(
          { method: vector.request.method, url: vector.request.url, headers: signed.headers, body: vector.request.body },
          { credentials: (id) => (id === credentials.customerId ? credentials : undefined), now: () => parseHttpDate(options.date as string)! },
        );
        expect(result).toMatchObject({ ok: true, customerId: credentials.customerId, scheme: 'digest' });
      });
    });
  }
});

describe('callback vector', () => {
  it('signs the raw body as the service does', () => {
    expect(callbackSignature(callback.body, callback.apiKey)).toBe(callback.signature);
    expect(callbackSignature(new TextEncoder().encode(callback.body), callback.apiKey)).toBe(callback.signature);
  });
  it('produces both callback headers', () => {
    expect(callbackHeaders(callback.body, { customerId: callback.customerId, apiKey: callback.apiKey })).toEqual({
      authorization: callback.authorization,
      'x-ts-authorization': callback.signature,
    });
  });
});

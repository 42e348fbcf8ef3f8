import { describe, expect, it } from 'vitest';
import { AuthError, basicAuthorization, createSigner, enableSha1, signRequest } from '../src/index.js';
import { randomUuid as portableUuid } from '../src/hashes.js';

enableSha1(); // one test signs with HMAC-SHA1

const credentials = { customerId: 'FFFFFFFF-EEEE-DDDD-1234-AB1234567890', apiKey: 'c2VjcmV0LWtleS1ieXRlcw==' };
const request = { method: 'POST', url: 'https://h/v1/messaging', contentType: 'application/x-www-form-urlencoded', body: 'a=1' };

describe('signRequest headers', () => {
  it('sends x-ts-date by default and no Date header', () => {
    const { headers } = signRequest(request, credentials, { date: new Date(Date.UTC(2020, 0, 2, 3, 4, 5)) });
    expect(headers['x-ts-date']).toBe('Thu, 02 Jan 2020 03:04:05 GMT');
    expect(headers.date).toBeUndefined();
    expect(headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(headers['x-ts-auth-method']).toBe('HMAC-SHA256');
    expect(headers.authorization).toMatch(/^TSA FFFFFFFF-EEEE-DDDD-1234-AB1234567890:[A-Za-z0-9+/]{43}=$/);
  });

  it('sends the Date header when asked, as the official clients do', () => {
    const { headers, stringToSign } = signRequest(request, credentials, { dateHeader: 'date', date: 'Thu, 02 Jan 2020 03:04:05 GMT' });
    expect(headers.date).toBe('Thu, 02 Jan 2020 03:04:05 GMT');
    expect(headers['x-ts-date']).toBeUndefined();
    expect(stringToSign.split('\n')[2]).toBe('Thu, 02 Jan 2020 03:04:05 GMT');
  });

  it('uses a fresh UUID nonce per call, a given one, or none', () => {
    const signer = createSigner(credentials);
    const a = signer.sign(request).headers['x-ts-nonce'];
    const b = signer.sign(request).headers['x-ts-nonce'];
    expect(a).toMatch(/^[0-9a-f-]{36}$/);
    expect(a).not.toBe(b);
    expect(signer.sign(request, { nonce: 'abcd' }).headers['x-ts-nonce']).toBe('abcd');
    expect(signer.sign(request, { nonce: false }).headers['x-ts-nonce']).toBeUndefined();
  });

  it('signs a URL object by its percent-encoded path, as fetch sends it', () => {
    const signed = signRequest({ method: 'GET', url: new URL('https://h/v1/a b?q=1') }, credentials, { nonce: false });
    expect(signed.stringToSign.endsWith('\n/v1/a%20b')).toBe(true);
  });

  it('leaves the content type line empty for GET', () => {
    const signed = signRequest({ method: 'get', url: '/v1/x', contentType: 'application/json' }, credentials);
    expect(signed.stringToSign.startsWith('GET\n\n\n')).toBe(true);
  });

  it('SHA-1 signatures are 28 base64 characters', () => {
    const { headers } = signRequest(request, credentials, { algorithm: 'HMAC-SHA1' });
    expect(headers.authorization?.split(':')[1]).toHaveLength(28);
    expect(headers['x-ts-auth-method']).toBe('HMAC-SHA1');
  });
});

describe('signRequest misuse throws typed errors', () => {
  const cases: Array<[string, () => unknown, string]> = [
    ['non-x-ts header', () => signRequest({ ...request, headers: { 'content-type': 'x' } }, credentials), 'invalid_header'],
    ['controlled header', () => signRequest({ ...request, headers: { 'X-TS-Nonce': 'abcd' } }, credentials), 'invalid_header'],
    ['duplicate header', () => signRequest({ ...request, headers: { 'X-TS-A': '1', 'x-ts-a': '2' } }, credentials), 'invalid_header'],
    ['bad algorithm', () => signRequest(request, credentials, { algorithm: 'HMAC-MD5' as never }), 'invalid_algorithm'],
    ['short nonce', () => signRequest(request, credentials, { nonce: 'abc' }), 'invalid_request'],
    ['missing method', () => signRequest({ ...request, method: '' }, credentials), 'invalid_request'],
    ['empty customer id', () => signRequest(request, { ...credentials, customerId: '' }), 'missing_credentials'],
    ['empty key', () => signRequest(request, { ...credentials, apiKey: '' }), 'missing_credentials'],
    ['no credentials', () => signRequest(request, undefined as never), 'missing_credentials'],
    ['colon in customer id', () => signRequest(request, { ...credentials, customerId: 'a:b' }), 'invalid_customer_id'],
  ];
  for (const [name, run, code] of cases) {
    it(name, () => {
      expect(run).toThrow(AuthError);
      try {
        run();
      } catch (error) {
        expect((error as AuthError).code).toBe(code);
      }
    });
  }

  it('an invalid key is a configuration error that never echoes the key', () => {
    const apiKey = 'not base64 at all, secret!';
    try {
      createSigner({ ...credentials, apiKey });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AuthError);
      expect((error as AuthError).code).toBe('invalid_api_key');
      expect(String(error)).not.toContain(apiKey);
      expect((error as Error).message).toMatch(/base64/);
    }
  });
});

describe('basicAuthorization', () => {
  it('encodes customerId:apiKey (key as text) in UTF-8 base64', () => {
    const header = basicAuthorization(credentials);
    expect(header).toBe('Basic ' + btoa(`${credentials.customerId}:${credentials.apiKey}`));
  });
});

describe('nonce outside secure contexts', () => {
  it('falls back to getRandomValues when crypto.randomUUID is missing (plain-HTTP pages)', () => {
    const original = globalThis.crypto.randomUUID;
    Object.defineProperty(globalThis.crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      // The portable `#hashes` (browsers, workers); on Node the nonce is node:crypto's randomUUID.
      const a = portableUuid();
      const b = portableUuid();
      expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(a).not.toBe(b);
    } finally {
      Object.defineProperty(globalThis.crypto, 'randomUUID', { value: original, configurable: true });
    }
  });
});

describe('nonce on Node', () => {
  it("signs with node:crypto's randomUUID, a fresh v4 UUID each time", () => {
    const nonces = new Set(Array.from({ length: 50 }, () => signRequest(request, credentials).headers['x-ts-nonce']));
    expect(nonces.size).toBe(50);
    for (const nonce of nonces) expect(nonce).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

// HMAC-SHA1 is loaded only when asked for: the default signers carry SHA-256 alone until
// enableSha1() is called, so that code which signs (with the default, HMAC-SHA256) does not ship
// SHA-1. Verification accepts both algorithms without it. This file never enables SHA-1 before
// its last test (vitest runs each test file in its own module graph).
import { describe, expect, it } from 'vitest';
import digest from '../vectors/digest.json' with { type: 'json' };
import { AuthError, createSigner, enableSha1, prepareMac, signRequest, verifyRequest, type SignableRequest, type SignOptions } from '../src/index.js';
import { parseHttpDate } from '../src/protocol.js';
import { nodeMac } from '../src/node/index.js';

const credentials = { customerId: digest.customerId, apiKey: digest.apiKey };
const vector = digest.vectors.find((v) => v.name === 'sha1')!;
const request = vector.request as SignableRequest;
const options = vector.options as SignOptions;

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('HMAC-SHA1 is opt-in for signing', () => {
  it('the default signers refuse HMAC-SHA1 with a typed error that says what to do, and never echo the key', () => {
    for (const attempt of [() => signRequest(request, credentials, options), () => createSigner(credentials, { algorithm: 'HMAC-SHA1' }), () => createSigner(credentials).sign(request, options)]) {
      const error = thrown(attempt);
      expect(error).toBeInstanceOf(AuthError);
      expect((error as AuthError).code).toBe('algorithm_not_enabled');
      expect((error as AuthError).message).toContain('enableSha1()');
      expect((error as AuthError).message).not.toContain(credentials.apiKey);
    }
  });

  it('HMAC-SHA256 signers are unaffected', () => {
    expect(signRequest(request, credentials, { ...options, algorithm: 'HMAC-SHA256' }).headers['x-ts-auth-method']).toBe('HMAC-SHA256');
  });

  it('mac: prepareMac and mac: nodeMac sign HMAC-SHA1 without enableSha1()', () => {
    for (const mac of [prepareMac, nodeMac]) {
      expect(createSigner(credentials, { mac }).sign(request, options).headers.authorization).toBe(vector.expected.authorization);
    }
  });

  it('verifyRequest accepts HMAC-SHA1 without enableSha1() (a verifier takes what clients may send)', async () => {
    const { headers } = createSigner(credentials, { mac: prepareMac }).sign(request, options);
    const result = await verifyRequest(
      { method: request.method, url: String(request.url), headers, body: request.body },
      { credentials: () => credentials, now: () => parseHttpDate(options.date as string)! },
    );
    expect(result).toMatchObject({ ok: true, customerId: credentials.customerId });
  });

  it('after enableSha1(), the default signers produce the golden HMAC-SHA1 vector', () => {
    enableSha1();
    expect(signRequest(request, credentials, options).headers.authorization).toBe(vector.expected.authorization);
    expect(createSigner(credentials, { algorithm: 'HMAC-SHA1' }).sign(request, options).stringToSign).toBe(vector.expected.stringToSign);
  });
});

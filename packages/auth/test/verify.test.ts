import { describe, expect, it } from 'vitest';
import {
  AuthError,
  basicAuthorization,
  createMemoryReplayStore,
  signRequest,
  verifyRequest,
  type VerifyOptions,
} from '../src/index.js';
import { headerMap, headerValue, stringToSign } from '../src/protocol.js';

const credentials = { customerId: 'FFFFFFFF-EEEE-DDDD-1234-AB1234567890', apiKey: 'c2VjcmV0LWtleS1ieXRlcw==' };
const T0 = Date.UTC(2024, 4, 6, 12, 0, 0);
const MIN = 60_000;
const base: VerifyOptions = { credentials: (id) => (id === credentials.customerId ? credentials : undefined), now: () => T0 };
const req = { method: 'POST', url: '/v1/messaging', contentType: 'application/x-www-form-urlencoded', body: 'phone_number=1&message=hi' };

function signed(options: Parameters<typeof signRequest>[2] = {}, extra: Partial<typeof req> = {}) {
  const request = { ...req, ...extra };
  const { headers } = signRequest(request, credentials, { date: new Date(T0), ...options });
  return { method: request.method, url: request.url, headers, body: request.body };
}

describe('verifyRequest: digest', () => {
  it('accepts a correctly signed request and reports the customer', async () => {
    expect(await verifyRequest(signed(), base)).toMatchObject({ ok: true, customerId: credentials.customerId, scheme: 'digest', timestamp: T0 });
  });

  it('missing Authorization', async () => {
    const r = signed();
    delete (r.headers as Record<string, string>).authorization;
    expect(await verifyRequest(r, base)).toMatchObject({ ok: false, status: 401, reason: 'missing_authorization' });
  });

  it.each(['TSA', 'TSA abc', 'TSA :sig', 'TSA id:', 'Bearer x', 'TSA a b:sig', 'TSA id:si g', 'x'.repeat(10_000)])(
    'malformed Authorization %#',
    async (value) => {
      const r = signed();
      r.headers.authorization = value;
      expect(await verifyRequest(r, base)).toMatchObject({ ok: false, status: 401, reason: 'malformed_authorization' });
    },
  );

  it('unknown customer', async () => {
    expect(await verifyRequest(signed(), { ...base, credentials: () => undefined })).toMatchObject({ reason: 'unknown_customer' });
  });

  it('unsupported auth method', async () => {
    const r = signed();
    r.headers['x-ts-auth-method'] = 'HMAC-MD5';
    expect(await verifyRequest(r, base)).toMatchObject({ reason: 'unsupported_auth_method' });
  });

  it('401 missing_date when neither Date nor X-TS-Date is sent', async () => {
    const r = signed();
    delete (r.headers as Record<string, string>)['x-ts-date'];
    expect(await verifyRequest(r, base)).toMatchObject({ ok: false, status: 401, reason: 'missing_date' });
  });

  it('invalid date', async () => {
    expect(await verifyRequest(signed({ date: '2024-05-06T12:00:00Z' }), base)).toMatchObject({ reason: 'invalid_date' });
    expect(await verifyRequest(signed({ date: 'Mon, 31 Feb 2024 12:00:00 GMT' }), base)).toMatchObject({ reason: 'invalid_date' });
  });

  it.each([
    ['RFC 1123', 'Mon, 06 May 2024 12:00:00 GMT'],
    ['RFC 850', 'Monday, 06-May-24 12:00:00 GMT'],
    ['asctime (no zone: GMT)', 'Mon May  6 12:00:00 2024'],
    ['RFC 1123 without zone (GMT)', 'Mon, 06 May 2024 12:00:00'],
    ['numeric offset', 'Mon, 06 May 2024 14:00:00 +0200'],
  ])('accepts the %s date format', async (_name, date) => {
    expect(await verifyRequest(signed({ date }), base)).toMatchObject({ ok: true, timestamp: T0 });
  });

  it.each([
    ['exactly 15 minutes behind', -15 * MIN, true],
    ['exactly 15 minutes ahead', 15 * MIN, true],
    ['15 minutes + 1 s behind', -15 * MIN - 1000, false],
    ['15 minutes + 1 s ahead', 15 * MIN + 1000, false],
  ])('clock window: %s', async (_name, offset, ok) => {
    const result = await verifyRequest(signed({ date: new Date(T0 + offset) }), base);
    expect(result.ok).toBe(ok);
    if (!result.ok) expect(result.reason).toBe('clock_skew');
  });

  it('X-TS-Date wins over Date when both are sent', async () => {
    const r = signed();
    r.headers.date = 'Mon, 01 Jan 2001 00:00:00 GMT';
    expect(await verifyRequest(r, base)).toMatchObject({ ok: true });
  });

  it.each([
    ['3 characters', 'abc', false],
    ['4 characters', 'abcd', true],
    ['256 characters', 'n'.repeat(256), true],
    ['257 characters', 'n'.repeat(257), false],
  ])('nonce of %s', async (_name, nonce, ok) => {
    const r = signed({ nonce: 'abcd' });
    r.headers['x-ts-nonce'] = nonce;
    // re-sign with the nonce under test (the signer itself refuses invalid ones)
    if (ok) Object.assign(r.headers, signRequest(req, credentials, { date: new Date(T0), nonce }).headers);
    const result = await verifyRequest(r, base);
    expect(result.ok ? true : result.reason).toBe(ok ? true : 'invalid_nonce');
  });

  it('a nonce is accepted once per customer, then nonce_reused', async () => {
    const store = createMemoryReplayStore({ now: () => T0 });
    const r = signed({ nonce: 'the-nonce' });
    expect(await verifyRequest(r, { ...base, replayStore: store })).toMatchObject({ ok: true, nonce: 'the-nonce' });
    expect(await verifyRequest(r, { ...base, replayStore: store })).toMatchObject({ ok: false, reason: 'nonce_reused' });
  });

  it('a request with a bad signature does not burn the nonce', async () => {
    const store = createMemoryReplayStore({ now: () => T0 });
    const good = signed({ nonce: 'the-nonce' });
    const forged = { ...good, body: 'phone_number=2&message=hi' };
    expect(await verifyRequest(forged, { ...base, replayStore: store })).toMatchObject({ reason: 'signature_mismatch' });
    expect(await verifyRequest(good, { ...base, replayStore: store })).toMatchObject({ ok: true });
  });

  it('signature_mismatch carries the verifier string to sign, never the key', async () => {
    const r = signed();
    const result = await verifyRequest({ ...r, url: '/v1/other' }, base);
    expect(result).toMatchObject({ ok: false, reason: 'signature_mismatch' });
    if (!result.ok) {
      expect(result.stringToSign?.endsWith('\n/v1/other')).toBe(true);
      expect(JSON.stringify(result)).not.toContain(credentials.apiKey);
    }
  });

  it('signature_mismatch of a body given as bytes: the same text as stringToSign() of the request', async () => {
    const r = signed();
    const body = new TextEncoder().encode('phone_number=2&message=h\u00e9');
    const result = await verifyRequest({ ...r, body }, base);
    const text = stringToSign({ method: 'POST', contentType: req.contentType, tsHeaders: Object.fromEntries(Object.entries(r.headers).filter(([name]) => name.startsWith('x-ts-'))), body, resource: '/v1/messaging' }).text;
    expect(result).toMatchObject({ ok: false, reason: 'signature_mismatch', stringToSign: text });
    expect(text).toContain('message=h\u00e9\n/v1/messaging');
  });

  // A lookup or a store may answer at once, with a promise, or with any thenable: the same verdicts either way.
  const answers = {
    'at once': <T>(value: T) => value,
    'a promise': <T>(value: T) => Promise.resolve(value),
    'a thenable': <T>(value: T) => ({ then: (resolve: (v: T) => void) => resolve(value) }) as unknown as Promise<T>,
  };
  it.each(Object.keys(answers) as Array<keyof typeof answers>)('a credentials lookup and a replay store that answer %s', async (how) => {
    const answer = answers[how];
    const memory = createMemoryReplayStore({ now: () => T0 });
    const options: VerifyOptions = {
      ...base,
      credentials: (id) => answer(id === credentials.customerId ? credentials : undefined),
      replayStore: { claim: (key, ttl) => answer(memory.claim(key, ttl)) },
    };
    const r = signed({ nonce: 'once-only' });
    expect(await verifyRequest(r, options)).toMatchObject({ ok: true, customerId: credentials.customerId });
    expect(await verifyRequest(r, options)).toMatchObject({ ok: false, reason: 'nonce_reused' });
    expect(await verifyRequest(signed(), { ...options, credentials: () => answer(undefined) })).toMatchObject({ reason: 'unknown_customer' });
    expect(await verifyRequest(signed(), { ...options, credentials: () => answer({ customerId: 'x', apiKey: '' }) })).toMatchObject({ reason: 'unknown_customer' });
  });

  it('a lookup that throws or rejects rejects the verification (not caught)', async () => {
    await expect(verifyRequest(signed(), { ...base, credentials: () => { throw new Error('store down'); } })).rejects.toThrow('store down');
    await expect(verifyRequest(signed(), { ...base, credentials: () => Promise.reject(new Error('store down')) })).rejects.toThrow('store down');
  });

  it.each([
    ['4 astral code points (8 UTF-16 units)', '\u{1F600}'.repeat(4), true],
    ['3 astral code points (6 UTF-16 units)', '\u{1F600}'.repeat(3), false],
    ['256 astral code points', '\u{1F600}'.repeat(256), true],
    ['257 astral code points', '\u{1F600}'.repeat(257), false],
  ])('nonce length counts code points: %s', async (_name, nonce, ok) => {
    const r = signed();
    Object.assign(r.headers, signRequest(req, credentials, { date: new Date(T0), nonce: 'abcd' }).headers, { 'x-ts-nonce': nonce });
    if (ok) Object.assign(r.headers, signRequest(req, credentials, { date: new Date(T0), nonce }).headers);
    const result = await verifyRequest(r, base);
    expect(result.ok ? true : result.reason).toBe(ok ? true : 'invalid_nonce');
  });

  it('accepts Headers objects and Node-style records with any case', async () => {
    const r = signed();
    const upper = Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k.toUpperCase(), v]));
    expect(await verifyRequest({ ...r, headers: upper }, base)).toMatchObject({ ok: true });
    expect(await verifyRequest({ ...r, headers: new Headers(r.headers) }, base)).toMatchObject({ ok: true });
  });

  it('can refuse digest', async () => {
    expect(await verifyRequest(signed(), { ...base, allowDigest: false })).toMatchObject({ reason: 'digest_not_allowed' });
  });
});

describe('verifyRequest: headers', () => {
  it('a Map of headers is refused with a typed error that says what to pass, never read as no headers', async () => {
    const r = signed();
    const map = new Map(Object.entries(r.headers)) as unknown as Record<string, string>;
    await expect(verifyRequest({ ...r, headers: map }, base)).rejects.toMatchObject({ name: 'AuthError', code: 'invalid_request', message: expect.stringContaining('new Headers(map)') });
    expect(() => headerMap(map)).toThrow(AuthError);
    expect(() => headerValue(map, 'authorization')).toThrow(AuthError);
  });

  it('a Headers object and a record in any case give the same verdict', async () => {
    const r = signed({ nonce: 'a-nonce-of-this-test' });
    const expected = await verifyRequest(r, base);
    expect(expected).toMatchObject({ ok: true });
    const upper = Object.fromEntries(Object.entries(r.headers).map(([n, v]) => [n.toUpperCase(), v]));
    expect(await verifyRequest({ ...r, headers: new Headers(r.headers) }, base)).toEqual(expected);
    expect(await verifyRequest({ ...r, headers: upper }, base)).toEqual(expected);
  });
});

describe('verifyRequest: basic (enabled with allowBasic)', () => {
  const base: VerifyOptions = { credentials: (id) => (id === credentials.customerId ? credentials : undefined), now: () => T0, allowBasic: true };
  const basic = (authorization: string) => ({ method: 'GET', url: '/v1/x', headers: { authorization } });
  it('accepts Basic with the right key', async () => {
    expect(await verifyRequest(basic(basicAuthorization(credentials)), base)).toMatchObject({ ok: true, scheme: 'basic' });
  });
  it('rejects Basic with a wrong key', async () => {
    const header = 'Basic ' + btoa(`${credentials.customerId}:d3Jvbmc=`);
    expect(await verifyRequest(basic(header), base)).toMatchObject({ reason: 'invalid_api_key' });
  });
  it('rejects Basic when not allowed', async () => {
    expect(await verifyRequest(basic(basicAuthorization(credentials)), { ...base, allowBasic: false })).toMatchObject({ reason: 'basic_not_allowed' });
  });
  it('rejects Basic without a colon', async () => {
    expect(await verifyRequest(basic('Basic ' + btoa('nocolon')), base)).toMatchObject({ reason: 'malformed_authorization' });
  });
});

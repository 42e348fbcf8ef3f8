// Hostile input against the request verifier: what an attacker controls (headers, ids, dates,
// nonces) must never throw, never let a replay through, never reach another customer's key.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { basicAuthorization, createMemoryReplayStore, signRequest, verifyRequest, type Credentials, type VerifyOptions } from '../src/index.js';
import { parseHttpDate } from '../src/protocol.js';

const credentials = { customerId: 'FFFFFFFF-EEEE-DDDD-1234-AB1234567890', apiKey: 'c2VjcmV0LWtleS1ieXRlcw==' };
const T0 = Date.UTC(2024, 4, 6, 12, 0, 0);
const req = { method: 'POST', url: '/v1/messaging', contentType: 'application/x-www-form-urlencoded', body: 'phone_number=1&message=hi' };

/** A credentials store that looks ids up case-insensitively, as many databases do for UUIDs. */
const caseInsensitive = (id: string) => (id.toUpperCase() === credentials.customerId.toUpperCase() ? credentials : undefined);

function signed(nonce = 'nonce-1234', url = req.url) {
  const request = { ...req, url };
  const { headers } = signRequest(request, credentials, { date: new Date(T0), nonce });
  return { method: request.method, url: request.url, headers: { ...headers }, body: request.body };
}

describe('replay key is built from what was verified', () => {
  it('a replay with the customer id spelled in lower case is refused when the lookup is case-insensitive', async () => {
    const replayStore = createMemoryReplayStore({ now: () => T0 });
    const options: VerifyOptions = { credentials: caseInsensitive, now: () => T0, replayStore };
    const first = signed();
    expect(await verifyRequest(first, options)).toMatchObject({ ok: true, customerId: credentials.customerId });
    const replay = { ...first, headers: { ...first.headers, authorization: first.headers.authorization!.replace(credentials.customerId, credentials.customerId.toLowerCase()) } };
    expect(await verifyRequest(replay, options)).toMatchObject({ ok: false, reason: 'nonce_reused' });
  });

  it('reports the customer id as the credentials store knows it, not as it was sent', async () => {
    const r = signed();
    r.headers.authorization = r.headers.authorization!.replace(credentials.customerId, credentials.customerId.toLowerCase());
    expect(await verifyRequest(r, { credentials: caseInsensitive, now: () => T0 })).toMatchObject({ ok: true, customerId: credentials.customerId });
  });

  it.each([
    ['leading and trailing spaces', ' nonce-1234 '],
    ['a tab', 'nonce-1234\t'],
    ['a trailing space only', 'nonce-1234 '],
  ])('a replay with the nonce re-spelled (%s) but the same canonical value is refused', async (_name, spelled) => {
    const replayStore = createMemoryReplayStore({ now: () => T0 });
    const options: VerifyOptions = { credentials: caseInsensitive, now: () => T0, replayStore };
    const first = signed('nonce-1234');
    expect(await verifyRequest(first, options)).toMatchObject({ ok: true });
    const replay = { ...first, headers: { ...first.headers, 'x-ts-nonce': spelled } };
    expect(await verifyRequest(replay, options)).toMatchObject({ ok: false, reason: 'nonce_reused' });
  });

  it('a replay with the nonce folded over two lines (obs-fold) is claimed in its unfolded form', async () => {
    const replayStore = createMemoryReplayStore({ now: () => T0 });
    const options: VerifyOptions = { credentials: caseInsensitive, now: () => T0, replayStore };
    const first = signed('abcd efgh');
    expect(await verifyRequest(first, options)).toMatchObject({ ok: true, nonce: 'abcd efgh' });
    const replay = { ...first, headers: { ...first.headers, 'x-ts-nonce': 'abcd\r\n efgh' } };
    expect(await verifyRequest(replay, options)).toMatchObject({ ok: false, reason: 'nonce_reused' });
  });
});

describe('credentials lookups that return junk', () => {
  const table: Record<string, Credentials> = { [credentials.customerId]: credentials };
  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'])(
    'customer id %s against a plain-object table is unknown_customer, not a throw',
    async (id) => {
      const r = signed();
      r.headers.authorization = `TSA ${id}:${r.headers.authorization!.split(':')[1]}`;
      const result = await verifyRequest(r, { credentials: (cid) => table[cid], now: () => T0 });
      expect(result).toMatchObject({ ok: false, status: 401, reason: 'unknown_customer' });
      const basic = { method: 'GET', url: '/v1/x', headers: { authorization: 'Basic ' + btoa(`${id}:c2VjcmV0`) } };
      expect(await verifyRequest(basic, { credentials: (cid) => table[cid], now: () => T0, allowBasic: true })).toMatchObject({ ok: false, reason: 'unknown_customer' });
    },
  );

  it.each([
    ['null', null],
    ['a number', 42],
    ['a string', 'key'],
    ['an object without apiKey', { customerId: credentials.customerId }],
    ['an object with a numeric apiKey', { customerId: credentials.customerId, apiKey: 123 }],
    ['an empty apiKey', { customerId: credentials.customerId, apiKey: '' }],
  ])('a lookup returning %s is unknown_customer', async (_name, value) => {
    const result = await verifyRequest(signed(), { credentials: () => value as unknown as Credentials, now: () => T0 });
    expect(result).toMatchObject({ ok: false, reason: 'unknown_customer' });
  });
});

describe('dates with years 0000-0099', () => {
  it.each([
    ['Sat, 01 Jan 0000 00:00:00 GMT', 0],
    ['Thu, 01 Jan 0070 00:00:00 GMT', 70],
    ['Tue, 31 Dec 0099 23:59:59 GMT', 99],
  ])('%s parses as year %i, not 19xx', (text, year) => {
    const ms = parseHttpDate(text);
    expect(ms).toBeDefined();
    expect(new Date(ms!).getUTCFullYear()).toBe(year);
  });

  it('asctime with year 0042 parses as 42', () => {
    expect(new Date(parseHttpDate('Fri Jan  1 00:00:00 0042')!).getUTCFullYear()).toBe(42);
  });

  it('29 Feb of year 0004 (a leap year) is valid, of year 0100 is not', () => {
    expect(parseHttpDate('Fri, 29 Feb 0004 00:00:00 GMT')).toBeDefined();
    expect(parseHttpDate('Mon, 29 Feb 0100 00:00:00 GMT')).toBeUndefined();
  });

  it('a request dated 0024 is clock_skew, not accepted as 1924 either', async () => {
    const { headers } = signRequest(req, credentials, { date: 'Mon, 06 May 0024 12:00:00 GMT' });
    const result = await verifyRequest({ ...req, headers }, { credentials: caseInsensitive, now: () => Date.UTC(1924, 4, 6, 12) });
    expect(result).toMatchObject({ ok: false, reason: 'clock_skew' });
  });
});

describe('optional strictness', () => {
  it('requireNonce refuses a signed request without X-TS-Nonce', async () => {
    const { headers } = signRequest(req, credentials, { date: new Date(T0), nonce: false });
    const input = { ...req, headers };
    expect(await verifyRequest(input, { credentials: caseInsensitive, now: () => T0 })).toMatchObject({ ok: true });
    expect(await verifyRequest(input, { credentials: caseInsensitive, now: () => T0, requireNonce: true })).toMatchObject({ ok: false, status: 401, reason: 'missing_nonce' });
  });

  it('Basic is refused unless the verifier enables it', async () => {
    const input = { method: 'GET', url: '/v1/x', headers: { authorization: basicAuthorization(credentials) } };
    expect(await verifyRequest(input, { credentials: caseInsensitive, now: () => T0 })).toMatchObject({ ok: false, reason: 'basic_not_allowed' });
    expect(await verifyRequest(input, { credentials: caseInsensitive, now: () => T0, allowBasic: true })).toMatchObject({ ok: true, scheme: 'basic' });
  });
});

describe('properties', () => {
  const anyHeaders = fc.dictionary(
    fc.oneof(fc.constantFrom('authorization', 'x-ts-date', 'date', 'x-ts-nonce', 'x-ts-auth-method', 'content-type'), fc.string()),
    fc.oneof(fc.string(), fc.array(fc.string(), { maxLength: 3 })),
  );

  it('verifyRequest never throws and never accepts arbitrary headers (with any lookup result)', async () => {
    const junk = fc.oneof(fc.constant(undefined), fc.constant(null), fc.anything(), fc.record({ customerId: fc.string(), apiKey: fc.anything() }));
    await fc.assert(
      fc.asyncProperty(anyHeaders, fc.string(), fc.string(), junk, fc.boolean(), async (headers, method, url, found, allowBasic) => {
        const result = await verifyRequest({ method, url, headers, body: 'x' }, { credentials: () => found as Credentials, now: () => T0, allowBasic });
        expect(result.ok).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('the same signed request is accepted once, whatever case or white space the id and nonce are replayed with', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('lower', 'upper', 'same'), fc.constantFrom('', ' ', '\t', '  '), async (idCase, pad) => {
        const replayStore = createMemoryReplayStore({ now: () => T0 });
        const options: VerifyOptions = { credentials: caseInsensitive, now: () => T0, replayStore };
        const first = signed('nonce-xyz1');
        expect((await verifyRequest(first, options)).ok).toBe(true);
        const id = idCase === 'lower' ? credentials.customerId.toLowerCase() : idCase === 'upper' ? credentials.customerId.toUpperCase() : credentials.customerId;
        const replay = {
          ...first,
          headers: { ...first.headers, authorization: first.headers.authorization!.replace(credentials.customerId, id), 'x-ts-nonce': `${pad}nonce-xyz1${pad}` },
        };
        expect(await verifyRequest(replay, options)).toMatchObject({ ok: false, reason: 'nonce_reused' });
      }),
      { numRuns: 50 },
    );
  });
});

import { createMemoryReplayStore } from '@x/auth';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import callbackVector from '../../auth/vectors/callback.json' with { type: 'json' };
import { assertCallback, CallbackVerificationError, isVerifyCallback, verifyCallback, verifyCallbackRequest, WebhookError, type CallbackPayload } from '../src/index.js';
import { createSignedCallback } from '../src/testing.js';

const credentials = { customerId: callbackVector.customerId, apiKey: callbackVector.apiKey };
const options = { customerId: credentials.customerId, apiKey: credentials.apiKey };
const payload: CallbackPayload = {
  reference_id: 'B56259E45884010488343BAA15FB0002', sub_resource: 'sms', errors: [],
  status: { code: 200, description: 'Delivered to handset', updated_on: '2016-10-21T14:05:36.181346Z' },
  verify: { code_state: 'UNKNOWN', code_entered: null },
};

describe('verifyCallback', () => {
  it('accepts the golden vector through Authorization (computed with Python)', async () => {
    const result = await verifyCallback({ body: callbackVector.body, headers: { authorization: callbackVector.authorization } }, options);
    expect(result).toMatchObject({ ok: true, header: 'authorization' });
  });

  it('falls back to X-TS-Authorization and says so', async () => {
    const result = await verifyCallback({ body: callbackVector.body, headers: { 'X-TS-Authorization': callbackVector.signature } }, options);
    expect(result).toMatchObject({ ok: true, header: 'x-ts-authorization' });
    expect((await verifyCallback({ body: callbackVector.body, headers: { 'x-ts-authorization': callbackVector.signature } }, { ...options, allowLegacyHeader: false })).ok).toBe(false);
  });

  it('types the payload', async () => {
    const signed = createSignedCallback(payload, credentials);
    const result = await verifyCallback(signed, options);
    if (!result.ok) throw new Error(result.reason);
    expect(isVerifyCallback(result.payload) && result.payload.verify.code_state).toBe('UNKNOWN');
  });

  it.each([
    ['tampered body', (s: { body: string; headers: Record<string, string> }) => ({ ...s, body: s.body.replace('200', '201') }), 'signature_mismatch'],
    ['re-serialised JSON (spacing changed)', (s: { body: string; headers: Record<string, string> }) => ({ ...s, body: JSON.stringify(JSON.parse(s.body), null, 1) }), 'signature_mismatch'],
    ['another customer', (s: { body: string; headers: Record<string, string> }) => ({ ...s, headers: { authorization: s.headers.authorization!.replace(credentials.customerId, 'OTHER-ID') } }), 'customer_mismatch'],
    ['no signature headers', (s: { body: string; headers: Record<string, string> }) => ({ ...s, headers: {} }), 'missing_signature'],
    ['garbage legacy header', (s: { body: string; headers: Record<string, string> }) => ({ ...s, headers: { 'x-ts-authorization': '%%%' } }), 'malformed_authorization'],
  ])('rejects %s', async (_name, mutate, reason) => {
    const result = await verifyCallback(mutate(createSignedCallback(payload, credentials)), options);
    expect(result).toMatchObject({ ok: false, reason });
  });

  it('accepts a signature from any key during a rotation', async () => {
    const next = { ...credentials, apiKey: btoa('the next key') };
    const signed = createSignedCallback(payload, next);
    expect((await verifyCallback(signed, options)).ok).toBe(false);
    expect((await verifyCallback(signed, { customerId: credentials.customerId, apiKeys: [credentials.apiKey, next.apiKey] })).ok).toBe(true);
  });

  it('reports a second delivery of a processed status update as a duplicate', async () => {
    const store = createMemoryReplayStore();
    const signed = createSignedCallback(payload, credentials);
    const first = await verifyCallback(signed, { ...options, replayStore: store });
    if (!first.ok) throw new Error(first.reason);
    await first.complete();
    expect(await verifyCallback(signed, { ...options, replayStore: store })).toMatchObject({ ok: false, reason: 'duplicate', payload: { reference_id: payload.reference_id } });
    const next = createSignedCallback({ ...payload, status: { ...payload.status, code: 207 } }, credentials);
    expect((await verifyCallback(next, { ...options, replayStore: store })).ok).toBe(true);
  });

  it('a signed body that is not JSON is invalid_json', async () => {
    expect(await verifyCallback(createSignedCallback('not json', credentials), options)).toMatchObject({ ok: false, reason: 'invalid_json' });
  });

  it('throws a clear error for a parsed body (misuse), never echoing the key', async () => {
    const error = await verifyCallback({ body: payload as never, headers: {} }, options).catch((e) => e);
    expect(error).toBeInstanceOf(WebhookError);
    expect(error.code).toBe('body_parsed');
    expect(error.message).toMatch(/raw body/);
    expect(error.message).not.toContain(credentials.apiKey);
  });

  it('assertCallback throws the reason', async () => {
    await expect(assertCallback({ body: '{}', headers: {} }, options)).rejects.toBeInstanceOf(CallbackVerificationError);
    await expect(assertCallback(createSignedCallback(payload, credentials), options)).resolves.toMatchObject({ reference_id: payload.reference_id });
  });

  it('verifyCallbackRequest reads a web Request once', async () => {
    const signed = createSignedCallback(payload, credentials);
    const request = new Request('http://x/cb', { method: 'POST', headers: signed.headers, body: new TextEncoder().encode(signed.body) });
    expect(await verifyCallbackRequest(request, options)).toMatchObject({ ok: true });
    expect(request.bodyUsed).toBe(true);
  });

  it('never throws on arbitrary headers and bodies', async () => {
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.constantFrom('authorization', 'x-ts-authorization', 'content-type'), fc.string()), fc.string(), async (headers, body) => {
        const result = await verifyCallback({ body, headers }, options);
        expect(result.ok).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});

describe('verifyCallback: the TSA header read without the pattern gives the pattern\'s verdicts', () => {
  // The oracle: the header read by the pattern alone (as before the fast path), then the same checks.
  const TSA = /^TSA ([^\s:]{1,256}):([A-Za-z0-9+/]{1,200}={0,2})$/i;
  const SIGNATURE = /^[A-Za-z0-9+/]{1,200}={0,2}$/;
  const oracle = (authorization: string | undefined, legacy: string | undefined, customerId: string, valid: (sig: string) => boolean) => {
    const value = authorization?.trim();
    const tsa = value ? TSA.exec(value) : null;
    if (tsa) return tsa[1] !== customerId ? 'customer_mismatch' : valid(tsa[2]!) ? 'authorization' : 'signature_mismatch';
    const old = legacy?.trim();
    if (old === undefined) return value ? 'malformed_authorization' : 'missing_signature';
    if (!SIGNATURE.test(old)) return 'malformed_authorization';
    return valid(old) ? 'x-ts-authorization' : 'signature_mismatch';
  };

  it('for headers made of the right and wrong parts, the verdict (reason or header) is the oracle\'s', async () => {
    const signed = createSignedCallback(payload, credentials);
    const signature = signed.headers.authorization!.slice(signed.headers.authorization!.lastIndexOf(':') + 1);
    const part = <T>(...values: T[]) => fc.constantFrom(...values);
    const ids = [credentials.customerId, 'OTHER-ID', `${credentials.customerId} x`, '', credentials.customerId.toLowerCase()];
    const sigs = [signature, signature.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')), `${signature}!`, signature.slice(0, -1), '', 'x'.repeat(201)];
    const prefixes = ['TSA ', 'tsa ', 'TsA ', 'TSA  ', 'TSB ', 'TSA', 'TSA_', 'TSA:', 'TS A ', 'Bearer '];
    const header = fc.record({ prefix: part(...prefixes), id: part(...ids), colon: part(':', '', '::'), sig: part(...sigs), pad: part('', ' ', '\t') });
    await fc.assert(
      fc.asyncProperty(fc.option(header, { nil: undefined }), fc.option(part(...sigs), { nil: undefined }), part(credentials.customerId, `${credentials.customerId}:x`, 'a b'), async (h, legacy, customerId) => {
        const authorization = h && `${h.pad}${h.prefix}${h.id}${h.colon}${h.sig}${h.pad}`;
        const headers: Record<string, string> = {};
        if (authorization !== undefined) headers.authorization = authorization;
        if (legacy !== undefined) headers['x-ts-authorization'] = legacy;
        const result = await verifyCallback({ body: signed.body, headers }, { ...options, customerId });
        const expected = oracle(authorization, legacy, customerId, (sig) => sig === signature);
        expect(result.ok ? result.header : result.reason).toBe(expected);
      }),
      { numRuns: 400 },
    );
  });
});

describe('verifyCallback with a payload parsed by the caller', () => {
  it('uses it as the payload, while the de-duplication identity is read from the bytes (a transforming parser changes nothing of it)', async () => {
    const signed = createSignedCallback(payload, credentials);
    const transformed = { ...(JSON.parse(signed.body) as object), status: { ...payload.status, updated_on: new Date(payload.status.updated_on) }, mine: true };
    const store = createMemoryReplayStore();
    const own = await verifyCallback({ ...signed, parsed: transformed }, { ...options, replayStore: store });
    if (!own.ok) throw new Error(own.reason);
    expect(own.payload).toBe(transformed);
    const plain = await verifyCallback(signed, options);
    if (!plain.ok) throw new Error(plain.reason);
    expect(own.identity).toBe(plain.identity);
    expect(own.identity).toMatch(/^\["sms"/); // the family's fields, not a hash of the bytes
    await own.complete();
    // The same update again, parsed by the caller the same way: a duplicate.
    expect(await verifyCallback({ ...signed, parsed: transformed }, { ...options, replayStore: store })).toMatchObject({ ok: false, reason: 'duplicate' });
    const untracked = await verifyCallback({ ...signed, parsed: transformed }, options);
    expect(untracked.ok && untracked.identity).toBe(plain.identity);
  });

  it('a body the caller parsed but JSON.parse cannot read is identified by its bytes, never thrown', async () => {
    const body = "{reference_id:'X'}";
    const headers = createSignedCallback(body, credentials).headers;
    const result = await verifyCallback({ body, headers, parsed: { reference_id: 'X' } }, { ...options, replayStore: createMemoryReplayStore() });
    expect(result.ok && result.identity).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});

describe('verifyCallback with a customer id that is not usable', () => {
  it.each([undefined, null, 42, '', 'a b', 'a:b', 'x'.repeat(257)])('%s: refused with a reason, never thrown', async (customerId) => {
    const signed = createSignedCallback(payload, credentials);
    const result = await verifyCallback(signed, { ...options, customerId: customerId as string });
    expect(result).toMatchObject({ ok: false, reason: 'customer_mismatch' });
  });
});

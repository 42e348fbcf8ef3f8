// Hostile and unusual input: callback identities per family (distinct events never collapse),
// the size limit and used bodies of verifyCallbackRequest, and properties of verifyCallback over
// arbitrary headers and bodies.
import { callbackHeaders, createMemoryReplayStore } from '@x/auth';
import { sha256Hex } from '@x/auth/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import callbackVector from '../../auth/vectors/callback.json' with { type: 'json' };
import { callbackIdentity, verifyCallback, verifyCallbackRequest, WebhookError } from '../src/index.js';
import { createSignedCallback } from '../src/testing.js';

const credentials = { customerId: callbackVector.customerId, apiKey: callbackVector.apiKey };
const options = { customerId: credentials.customerId, apiKey: credentials.apiKey };
const bytes = (text: string) => new TextEncoder().encode(text);
const identityOf = (payload: unknown) => {
  const body = JSON.stringify(payload);
  return callbackIdentity(JSON.parse(body), body);
};

// One example per family, as the service references show them (docs/service.md §12.4, §14.3).
const FAMILIES = {
  smsDlr: {
    status: { updated_on: 'Thu, 23 Jun 2022 19:03:44 GMT', code: 200, description: 'Delivered to handset' },
    errors: [], sub_resource: 'sms', reference_id: '0123456789ABCDEF0123456789ABCDEF',
    additional_info: { mcc: '310', mnc: '004', price: '0.01', currency: 'USD', message_parts_count: '2' },
  },
  verifySms: {
    status: { code: 200, description: 'Delivered to handset', updated_on: '2016-10-21T14:05:36.181346Z' },
    submit_timestamp: '2016-01-01T01:01:01.010101Z', errors: [], reference_id: 'B56259E45884010488343BAA15FB0002',
    verify: { code_state: 'UNKNOWN', code_entered: null }, sub_resource: 'sms',
  },
  voiceV1: {
    status: { code: 100, description: 'Call answered', updated_on: '2024-01-01T00:00:10.000000Z' },
    errors: [], reference_id: 'C56259E45884010488343BAA15FB0003', sub_resource: 'voice',
  },
  voiceVerify: {
    status: { code: 100, description: 'Call answered', updated_on: '2024-01-01T00:00:10.000000Z' },
    errors: [], reference_id: 'D56259E45884010488343BAA15FB0004', sub_resource: 'call', verify: { code_state: 'VALID', code_entered: '1234' },
  },
  voiceV2: { event: 'dial_completed', reference_id: '6a1e54ec-4a4b-4a0e-9d5c-5e2d7c3c1f00', data: { to: '+15555550100', from: '+15555550199', status: 'answered' } },
  inboundSms: {
    status: { updated_on: '2017-01-27T19:46:55.787464Z', code: 1500, description: 'Delivered to customer' },
    submit_timestamp: '2017-01-27T19:46:55.778000Z', errors: [],
    user_response: { phone_number: '15555551212', sender_id: '', mo_message: 'STOP' }, sub_resource: 'mo_sms', reference_id: '0143D53D86A2030BE20025B600000002',
  },
  bulkSms: {
    status: { updated_on: 'Thu, 23 Jun 2022 19:03:44 GMT', code: 200, description: 'Delivered to handset' },
    errors: [], sub_resource: 'bulk_sms', session_id: 'recipient-7', reference_id: '0123456789ABCDEF0123456789ABCDEE',
  },
  verifyApi: {
    reference_id: 'E56259E45884010488343BAA15FB0005', state: 'VERIFIED', created_on: '2025-05-06T08:54:29.543000Z', updated_on: '2025-05-06T08:55:01.100000Z',
    recipient: { phone_number: '15555550100' }, verification_policy: [{ method: 'sms' }],
  },
} as const;

describe('callback identity, pinned per family', () => {
  it.each([
    ['SMS delivery report', FAMILIES.smsDlr, '["sms","0123456789ABCDEF0123456789ABCDEF",200,"Thu, 23 Jun 2022 19:03:44 GMT"]'],
    ['SMS verify', FAMILIES.verifySms, '["sms","B56259E45884010488343BAA15FB0002",200,"2016-10-21T14:05:36.181346Z","UNKNOWN",null]'],
    ['voice v1', FAMILIES.voiceV1, '["voice","C56259E45884010488343BAA15FB0003",100,"2024-01-01T00:00:10.000000Z"]'],
    ['voice verify', FAMILIES.voiceVerify, '["call","D56259E45884010488343BAA15FB0004",100,"2024-01-01T00:00:10.000000Z","VALID","1234"]'],
    ['inbound SMS (MO)', FAMILIES.inboundSms, '["mo_sms","0143D53D86A2030BE20025B600000002",1500,"2017-01-27T19:46:55.787464Z"]'],
    ['bulk SMS, per recipient', FAMILIES.bulkSms, '["bulk_sms","0123456789ABCDEF0123456789ABCDEE","recipient-7",200,"Thu, 23 Jun 2022 19:03:44 GMT"]'],
    ['Verify API delivery report', FAMILIES.verifyApi, '["verify_api","E56259E45884010488343BAA15FB0005","VERIFIED","2025-05-06T08:55:01.100000Z"]'],
  ])('%s: its identifying fields', (_family, payload, identity) => {
    expect(identityOf(payload)).toBe(identity);
  });

  it('voice v2 events (no status object): the SHA-256 of the raw bytes', () => {
    const body = JSON.stringify(FAMILIES.voiceV2);
    expect(callbackIdentity(JSON.parse(body), body)).toBe(`voice_event:${sha256Hex(body)}`);
    expect(callbackIdentity(JSON.parse(body), bytes(body))).toBe(`voice_event:${sha256Hex(body)}`);
  });

  it.each([
    ['an unknown sub_resource', { ...FAMILIES.smsDlr, sub_resource: 'rcs' }],
    ['a status without updated_on', { ...FAMILIES.smsDlr, status: { code: 200, description: 'x' } }],
    ['no reference_id', { ...FAMILIES.smsDlr, reference_id: undefined }],
    ['a bulk report without a recipient id', { ...FAMILIES.bulkSms, session_id: null }],
    ['a JSON array', [1, 2]],
    ['an unexpected shape', { hello: 'world' }],
  ])('%s: the SHA-256 of the raw bytes', (_case, payload) => {
    const body = JSON.stringify(payload);
    expect(callbackIdentity(JSON.parse(body), body)).toBe(`sha256:${sha256Hex(body)}`);
  });

  it('a retry of the same event has the same identity (SMS delivery report re-sent with other additional_info)', () => {
    expect(identityOf({ ...FAMILIES.smsDlr, additional_info: { price: '0.02' } })).toBe(identityOf(FAMILIES.smsDlr));
  });

  it('two different events of one family never share an identity', () => {
    const pairs: Array<[unknown, unknown]> = [
      [FAMILIES.smsDlr, { ...FAMILIES.smsDlr, status: { ...FAMILIES.smsDlr.status, code: 203 } }],
      [FAMILIES.smsDlr, { ...FAMILIES.smsDlr, status: { ...FAMILIES.smsDlr.status, updated_on: 'Thu, 23 Jun 2022 19:03:45 GMT' } }],
      [FAMILIES.verifySms, { ...FAMILIES.verifySms, verify: { code_state: 'VALID', code_entered: '1234' } }],
      [FAMILIES.voiceV2, { ...FAMILIES.voiceV2, event: 'speak_completed' }],
      [FAMILIES.voiceV2, { ...FAMILIES.voiceV2, data: { ...FAMILIES.voiceV2.data, status: 'busy' } }],
      [FAMILIES.bulkSms, { ...FAMILIES.bulkSms, session_id: 'recipient-8' }],
      [FAMILIES.verifyApi, { ...FAMILIES.verifyApi, state: 'FAILED' }],
      [FAMILIES.smsDlr, { ...FAMILIES.smsDlr, sub_resource: 'mo_sms' }],
    ];
    for (const [a, b] of pairs) expect(identityOf(a)).not.toBe(identityOf(b));
  });

  it('property: v2 voice events of one call with different bytes never share an identity', () => {
    const event = fc.record({ event: fc.constantFrom('incoming_call', 'dial_completed', 'speak_completed'), reference_id: fc.constant(FAMILIES.voiceV2.reference_id), data: fc.dictionary(fc.string(), fc.string()) });
    fc.assert(
      fc.property(event, event, (a, b) => {
        const [x, y] = [JSON.stringify(a), JSON.stringify(b)];
        fc.pre(x !== y);
        expect(callbackIdentity(a, x)).not.toBe(callbackIdentity(b, y));
      }),
    );
  });

  it('two v2 events of one call are both processed with a replay store (not dropped as duplicates)', async () => {
    const store = createMemoryReplayStore();
    for (const event of ['incoming_call', 'dial_completed']) {
      const result = await verifyCallback(createSignedCallback(JSON.stringify({ ...FAMILIES.voiceV2, event }), credentials), { ...options, replayStore: store });
      expect(result.ok).toBe(true);
      if (result.ok) await result.complete();
    }
  });

  it('an identity stays bounded in size', () => {
    const long = { ...FAMILIES.smsDlr, reference_id: 'R'.repeat(5000) };
    const body = JSON.stringify(long);
    expect(callbackIdentity(long, body).length).toBeLessThanOrEqual(512);
    expect(callbackIdentity(long, body)).not.toBe(callbackIdentity({ ...long, reference_id: 'R'.repeat(4999) }, JSON.stringify({ ...long, reference_id: 'R'.repeat(4999) })));
  });
});

describe('verifyCallbackRequest on hostile requests', () => {
  const signed = createSignedCallback(FAMILIES.smsDlr as never, credentials);

  it('answers body_too_large (413) beyond its limit, and the default limit is 100 KiB', async () => {
    const big = createSignedCallback(JSON.stringify({ ...FAMILIES.smsDlr, pad: 'x'.repeat(200 * 1024) }), credentials);
    const request = new Request('http://x/cb', { method: 'POST', headers: big.headers, body: big.body });
    expect(await verifyCallbackRequest(request, options)).toMatchObject({ ok: false, reason: 'body_too_large' });
    const small = new Request('http://x/cb', { method: 'POST', headers: signed.headers, body: signed.body });
    expect(await verifyCallbackRequest(small, { ...options, limit: 100 })).toMatchObject({ ok: false, reason: 'body_too_large' });
    const fits = new Request('http://x/cb', { method: 'POST', headers: signed.headers, body: signed.body });
    expect(await verifyCallbackRequest(fits, { ...options, limit: bytes(signed.body).length })).toMatchObject({ ok: true });
  });

  it('stream-reads with a cap: a huge body is cancelled at the limit, not read to its end', async () => {
    let pulled = 0;
    let cancelled = false;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 64 * 1024;
        controller.enqueue(new Uint8Array(64 * 1024));
        if (pulled >= 16 * 1024 * 1024) controller.close(); // 16 MiB: bounded, so a reader without a cap still ends
      },
      cancel() {
        cancelled = true;
      },
    });
    const request = new Request('http://x/cb', { method: 'POST', headers: signed.headers, body: endless, duplex: 'half' } as RequestInit);
    expect(await verifyCallbackRequest(request, { ...options, limit: 10 * 1024 })).toMatchObject({ ok: false, reason: 'body_too_large' });
    expect(cancelled).toBe(true);
    expect(pulled).toBeLessThan(1024 * 1024);
  });

  it('a declared Content-Length over the limit is refused without reading', async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(10));
        controller.close();
      },
    });
    const request = new Request('http://x/cb', { method: 'POST', headers: { ...signed.headers, 'content-length': '999999' }, body, duplex: 'half' } as RequestInit);
    expect(await verifyCallbackRequest(request, { ...options, limit: 1000 })).toMatchObject({ ok: false, reason: 'body_too_large' });
    expect(pulled).toBeLessThanOrEqual(1);
  });

  it('a body the caller already read is a typed error saying what to do (not a raw TypeError)', async () => {
    const request = new Request('http://x/cb', { method: 'POST', headers: signed.headers, body: signed.body });
    await request.text();
    const error = await verifyCallbackRequest(request, options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebhookError);
    expect(error).toMatchObject({ code: 'body_used' });
    expect((error as Error).message).toMatch(/clone\(\)|verifyCallback/);
  });

  it('a request without a body verifies the empty body', async () => {
    const empty = createSignedCallback('', credentials);
    const request = new Request('http://x/cb', { method: 'POST', headers: empty.headers });
    expect(await verifyCallbackRequest(request, options)).toMatchObject({ ok: false, reason: 'invalid_json' });
  });
});

describe('verifyCallback properties', () => {
  const headerValue = fc.oneof(fc.string(), fc.array(fc.string(), { maxLength: 3 }), fc.constant(undefined), fc.constantFrom('TSA ', `TSA ${credentials.customerId}:`, `TSA ${credentials.customerId}:${'A'.repeat(43)}=`, 'A'.repeat(43) + '='));
  const headerName = fc.oneof(fc.constantFrom('authorization', 'Authorization', 'x-ts-authorization', 'X-TS-Authorization', 'content-type'), fc.string());
  const body = fc.oneof(fc.string(), fc.uint8Array({ maxLength: 512 }), fc.json());

  it('never throws on arbitrary headers and bodies, and never accepts an unsigned one', async () => {
    await fc.assert(
      fc.asyncProperty(fc.dictionary(headerName, headerValue), body, async (headers, raw) => {
        const result = await verifyCallback({ body: raw, headers: headers as Record<string, string> }, { ...options, replayStore: createMemoryReplayStore() });
        expect(result.ok).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('never throws on Headers objects either', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.constantFrom('authorization', 'x-ts-authorization', 'x-other'), fc.string().filter((v) => !/[\r\n\0]/.test(v))), { maxLength: 4 }), body, async (pairs, raw) => {
        const headers = new Headers();
        for (const [name, value] of pairs) {
          try {
            headers.append(name, value);
          } catch {
            return; // not a valid header value: no request could carry it
          }
        }
        expect((await verifyCallback({ body: raw, headers }, options)).ok).toBe(false);
      }),
      { numRuns: 200 },
    );
  });

  it('never accepts a single-byte mutation of a signed body', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 256 }), fc.nat(), fc.integer({ min: 1, max: 255 }), async (original, at, delta) => {
        const headers = callbackHeaders(original, credentials);
        // The original's signature holds (random bytes are rarely JSON: invalid_json is fine here).
        const before = await verifyCallback({ body: original, headers }, options);
        expect(before.ok || before.reason === 'invalid_json').toBe(true);
        const mutated = original.slice();
        const i = at % mutated.length;
        mutated[i] = (mutated[i]! + delta) % 256;
        expect(await verifyCallback({ body: mutated, headers }, options)).toMatchObject({ ok: false, reason: 'signature_mismatch' });
      }),
      { numRuns: 300 },
    );
  });

  it('never accepts a single-character mutation of a signed JSON callback', async () => {
    const text = JSON.stringify(FAMILIES.verifySms);
    const headers = callbackHeaders(text, credentials);
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: text.length - 1 }), fc.integer({ min: 1, max: 94 }), async (at, delta) => {
        const replaced = String.fromCharCode(32 + ((text.charCodeAt(at) - 32 + delta) % 95));
        const mutated = text.slice(0, at) + replaced + text.slice(at + 1);
        expect((await verifyCallback({ body: mutated, headers }, options)).ok).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});

// Request building of the newer operations, field by field, on a real HTTP server on 127.0.0.1
// that checks every signature (or Basic header) with @x/auth.
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigurationError, createClient } from '../src/index.js';
import { INTEL, MAIN, PHONE, REF, routedClient, VAPI } from './operation-samples.js';
import { startRecordingServer, type RecordingServer } from './recording-server.js';

let server: RecordingServer;
beforeAll(async () => {
  server = await startRecordingServer([MAIN, INTEL, VAPI]);
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const only = () => {
  expect(server.requests).toHaveLength(1);
  const req = server.requests[0]!;
  expect(req.auth.ok).toBe(true);
  return req;
};
const form = (body: string) => Object.fromEntries(new URLSearchParams(body));

describe('Voice Verify', () => {
  it('sends every documented field as a signed form, the text as tts_message', async () => {
    await routedClient(server.url).verify.call({
      phoneNumber: '+1 (555) 555-1234',
      verifyCode: '4821',
      ttsMessage: 'Hello, your code is $$CODE$$.',
      ucid: 'BACS',
      originatingIp: '2001:db8::7',
      callerId: '15555550000',
      callForwardAction: 'block',
      prompt: { message: 'Press 5 to hear your code', digit: '5' },
      redial: false,
      extra: { custom_flag: 'x' },
    });
    const req = only();
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/rest/v1/verify/call');
    expect(form(req.body)).toEqual({
      custom_flag: 'x',
      phone_number: '15555551234',
      verify_code: '4821',
      tts_message: 'Hello, your code is $$CODE$$.',
      ucid: 'BACS',
      originating_ip: '2001:db8::7',
      caller_id: '15555550000',
      call_forward_action: 'block',
      prompt_message: 'Press 5 to hear your code',
      prompt_digit: '5',
      redial: 'false',
    });
  });

  it('sends pressx as 1 and a language for the predefined message', async () => {
    await routedClient(server.url).verify.call({ phoneNumber: PHONE, pressx: true });
    await routedClient(server.url).verify.call({ phoneNumber: PHONE, language: 'fr-FR', pressx: false });
    expect(form(server.requests[0]!.body)).toEqual({ phone_number: PHONE, pressx: '1' });
    expect(form(server.requests[1]!.body)).toEqual({ phone_number: PHONE, language: 'fr-FR' });
  });

  it('the call is checked through the verify status endpoint, code in the query', async () => {
    server.script({ status: 200, body: { reference_id: REF, sub_resource: 'call', errors: [], status: { code: 100, description: 'Call answered', updated_on: 'x' }, verify: { code_state: 'VALID', code_entered: '4821' } } });
    const { data } = await routedClient(server.url).verify.check(REF, '4821');
    const req = only();
    expect(req.path).toBe(`/rest/v1/verify/${REF}`);
    expect(req.query).toEqual({ verify_code: '4821' });
    expect(data.sub_resource === 'call' && data.verify.code_state).toBe('VALID');
  });
});

describe('Verify completion', () => {
  it('PUTs an empty, signed form to the completion path', async () => {
    await routedClient(server.url).verify.complete(REF.toLowerCase());
    const req = only();
    expect(req).toMatchObject({ method: 'PUT', path: `/rest/v1/verify/completion/${REF.toLowerCase()}`, contentType: 'application/x-www-form-urlencoded', body: '' });
    expect(req.headers['content-length']).toBe('0');
  });
});

describe('PhoneID', () => {
  it('standard: a GET without query, body or content type', async () => {
    await routedClient(server.url).phoneId.standard('+44 20 7946 0958');
    expect(only()).toMatchObject({ method: 'GET', path: '/rest/v1/phoneid/standard/442079460958', query: {}, body: '', contentType: undefined });
  });

  it('live and number deactivation: the ucid in the (unsigned) query', async () => {
    await routedClient(server.url).phoneId.live(PHONE, { ucid: 'ATCK' });
    await routedClient(server.url).phoneId.deactivation(PHONE, { ucid: 'UNKN' });
    expect(server.requests.map((r) => [r.method, r.path, r.query, r.auth.ok])).toEqual([
      ['GET', `/rest/v1/phoneid/live/${PHONE}`, { ucid: 'ATCK' }, true],
      ['GET', `/rest/v1/phoneid/number_deactivation/${PHONE}`, { ucid: 'UNKN' }, true],
    ]);
  });

  it('lookup sends typed add-ons and consent as JSON', async () => {
    await routedClient(server.url).phoneId.lookup(PHONE, {
      addons: {
        contact_match: { first_name: 'Ada', last_name: 'Lovelace', postal_code: '94105' },
        number_deactivation: { last_verified: '2024-01-31T12:00:00Z' },
        porting_history: { past_x_days: 30 },
        call_forward_detection: {},
        sim_swap: {},
      },
      consent: { method: 1, timestamp: '2024-02-01T08:00:00.000Z' },
    });
    const req = only();
    expect(req.contentType).toBe('application/json');
    expect(JSON.parse(req.body)).toEqual({
      addons: {
        contact_match: { first_name: 'Ada', last_name: 'Lovelace', postal_code: '94105' },
        number_deactivation: { last_verified: '2024-01-31T12:00:00Z' },
        porting_history: { past_x_days: 30 },
        call_forward_detection: {},
        sim_swap: {},
      },
      consent: { method: 1, timestamp: '2024-02-01T08:00:00.000Z' },
    });
  });
});

describe('Score and Intelligence', () => {
  it('legacy score: a signed form on the REST host', async () => {
    await routedClient(server.url).score.lookup(PHONE, { accountLifecycleEvent: 'transact', externalId: 'tx-9', originatingIp: '203.0.113.7', deviceId: 'd1', accountId: 'a1', emailAddress: 'ada@example.com' });
    const req = only();
    expect(req).toMatchObject({ method: 'POST', path: `/rest/v1/score/${PHONE}`, contentType: 'application/x-www-form-urlencoded' });
    expect(req.auth).toMatchObject({ customerId: MAIN.customerId, scheme: 'digest' });
    expect(form(req.body)).toEqual({ account_lifecycle_event: 'transact', external_id: 'tx-9', originating_ip: '203.0.113.7', device_id: 'd1', account_id: 'a1', email_address: 'ada@example.com' });
  });

  it('intelligence: its own host and its own credentials', async () => {
    await routedClient(server.url).intelligence.phone({ phoneNumber: '+1 555 555 1234', accountLifecycleEvent: 'create', emailAddress: 'ada@example.com' });
    const req = only();
    expect(req).toMatchObject({ method: 'POST', path: '/intel/intelligence/phone' });
    expect(req.auth).toMatchObject({ customerId: INTEL.customerId, scheme: 'digest' });
    expect(form(req.body)).toEqual({ phone_number: PHONE, account_lifecycle_event: 'create', email_address: 'ada@example.com' });
  });
});

describe('Verify API', () => {
  it('create: JSON with recipient, policy, own code, template and external id', async () => {
    await routedClient(server.url).verifyApi.create({
      phoneNumber: '+1 555 555 1234',
      email: 'ada@example.com',
      policy: [{ method: 'silent' }, { method: 'sms', fallbackTime: 45 }, { method: 'email' }],
      securityFactor: '482193',
      template: 'login_code',
      externalId: 'order-17',
    });
    const req = only();
    expect(req).toMatchObject({ method: 'POST', path: '/vapi/verification', contentType: 'application/json' });
    expect(req.auth).toMatchObject({ customerId: VAPI.customerId, scheme: 'digest' });
    expect(JSON.parse(req.body)).toEqual({
      recipient: { phone_number: PHONE, email: 'ada@example.com' },
      verification_policy: [{ method: 'silent' }, { method: 'sms', fallback_time: 45 }, { method: 'email' }],
      security_factor: '482193',
      message_template: { name: 'login_code' },
      external_id: 'order-17',
    });
  });

  it('create: an email-only policy needs no phone number; no policy sends none', async () => {
    await routedClient(server.url).verifyApi.create({ email: 'ada@example.com', policy: [{ method: 'email', fallbackTime: 120 }] });
    await routedClient(server.url).verifyApi.create({ phoneNumber: PHONE });
    expect(JSON.parse(server.requests[0]!.body)).toEqual({ recipient: { email: 'ada@example.com' }, verification_policy: [{ method: 'email', fallback_time: 120 }] });
    expect(JSON.parse(server.requests[1]!.body)).toEqual({ recipient: { phone_number: PHONE } });
  });

  it('get: a signed GET; finalize: a PATCH to .../state with Basic of the Verify API account', async () => {
    const client = routedClient(server.url);
    await client.verifyApi.get(REF);
    await client.verifyApi.finalize(REF, '482193');
    const [get, patch] = server.requests;
    expect(get).toMatchObject({ method: 'GET', path: `/vapi/verification/${REF}`, body: '' });
    expect(get!.auth).toMatchObject({ ok: true, scheme: 'digest', customerId: VAPI.customerId });
    expect(patch).toMatchObject({ method: 'PATCH', path: `/vapi/verification/${REF}/state`, contentType: 'application/json' });
    expect(patch!.headers.authorization).toBe(`Basic ${btoa(`${VAPI.customerId}:${VAPI.apiKey}`)}`);
    expect(patch!.headers['x-ts-auth-method']).toBeUndefined();
    expect(JSON.parse(patch!.body)).toEqual({ action: 'finalize', security_factor: '482193' });
  });
});

describe('Bulk SMS', () => {
  it('joins the recipients with commas, ids after a colon', async () => {
    await routedClient(server.url).messaging.bulk({
      recipients: ['+1 555 555 1234', { phoneNumber: '15555551235', id: 'user-2' }, { phoneNumber: '15555551236' }],
      template: 'Our store opens at 9',
      ucid: 'OTHR',
      sessionId: 'campaign-7',
    });
    const req = only();
    expect(req).toMatchObject({ method: 'POST', path: '/rest/v1/verify/bulk_sms', contentType: 'application/x-www-form-urlencoded' });
    expect(form(req.body)).toEqual({ recipients: '15555551234,15555551235:user-2,15555551236', template: 'Our store opens at 9', ucid: 'OTHR', session_id: 'campaign-7' });
  });

  it('property: the recipients field lists exactly the given numbers and ids, in order', async () => {
    const client = routedClient(server.url);
    const recipient = fc.record({ phoneNumber: fc.stringMatching(/^[1-9]\d{7,14}$/), id: fc.option(fc.stringMatching(/^[A-Za-z0-9_\-. ]{1,20}$/).filter((s) => s.trim() !== ''), { nil: undefined }) });
    await fc.assert(
      fc.asyncProperty(fc.array(recipient, { minLength: 1, maxLength: 30 }), async (list) => {
        server.reset();
        await client.messaging.bulk({ recipients: list.map((r) => (r.id === undefined ? r.phoneNumber : r)), template: 'x' });
        const sent = form(server.requests[0]!.body).recipients!.split(',').map((entry) => {
          const [phoneNumber, ...id] = entry.split(':');
          return { phoneNumber, id: id.length ? id.join(':') : undefined };
        });
        expect(sent).toEqual(list);
        expect(server.requests[0]!.auth.ok).toBe(true);
      }),
      { numRuns: 60 },
    );
  });
});

describe('per-product hosts and credentials', () => {
  it('a custom baseUrl (emulator, proxy) carries every product, with the client credentials', async () => {
    const client = createClient({ ...MAIN, baseUrl: server.url });
    await client.intelligence.phone({ phoneNumber: PHONE, accountLifecycleEvent: 'create' });
    await client.verifyApi.get(REF);
    expect(server.requests.map((r) => [r.path, r.auth.ok && r.auth.customerId])).toEqual([
      ['/intelligence/phone', MAIN.customerId],
      [`/verification/${REF}`, MAIN.customerId],
    ]);
  });

  it('on the service hosts, each product goes to its own default host', async () => {
    for (const baseUrl of [undefined, 'https://rest-ww.telesign.com']) {
      const urls: string[] = [];
      const fetch = (async (input: RequestInfo | URL) => {
        urls.push(String(input));
        return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
      }) as typeof globalThis.fetch;
      const client = createClient({ ...MAIN, ...(baseUrl ? { baseUrl } : {}), fetch, products: { intelligence: INTEL } });
      await client.messaging.status(REF);
      await client.intelligence.phone({ phoneNumber: PHONE, accountLifecycleEvent: 'create' });
      await client.verifyApi.get(REF);
      expect(urls).toEqual([
        `${baseUrl ?? 'https://rest-api.telesign.com'}/v1/messaging/${REF}`,
        'https://detect.telesign.com/intelligence/phone',
        `https://verify.telesign.com/verification/${REF}`,
      ]);
    }
  });

  it('product options are checked at createClient, and never echo a key', () => {
    const bad: [unknown, RegExp][] = [
      [{ intel: {} }, /products\.intel is not a product.*intelligence, verifyApi/],
      [{ intelligence: { customerId: INTEL.customerId } }, /products\.intelligence: give customerId and apiKey together/],
      [{ verifyApi: { apiKey: VAPI.apiKey } }, /products\.verifyApi: give customerId and apiKey together/],
      [{ intelligence: { customerId: 'x', apiKey: 'not base64 !secret' } }, /products\.intelligence: apiKey is not valid base64/],
      [{ verifyApi: { baseUrl: 'verify.example' } }, /products\.verifyApi\.baseUrl must be an absolute URL/],
      [{ verifyApi: 'https://verify.example' }, /products\.verifyApi must be an object/],
      ['all', /products must be an object/],
    ];
    for (const [products, message] of bad) {
      let error: unknown;
      try {
        createClient({ ...MAIN, products: products as never });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConfigurationError);
      expect(String(error)).toMatch(message);
      expect(String(error)).not.toContain('secret');
    }
    expect(server.requests).toHaveLength(0);
  });
});

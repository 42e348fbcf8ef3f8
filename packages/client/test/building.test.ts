import { verifyRequest } from '@x/auth';
import { describe, expect, it } from 'vitest';
import { ConfigurationError, createClient, ValidationError } from '../src/index.js';

const credentials = { customerId: 'FFFFFFFF-EEEE-DDDD-1234-AB1234567890', apiKey: 'c2VjcmV0LWtleS1ieXRlcw==' };

/** A fetch that records what it was given and answers a fixed JSON body. */
function recorder(status = 200, body: unknown = { reference_id: '0'.repeat(32), status: { code: 290, description: 'x', updated_on: 'x' } }) {
  const requests: Request[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    requests.push(new Request(input, init));
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  };
  return { requests, fetch: fetch as typeof globalThis.fetch };
}

describe('request building', () => {
  it('sends a signed form POST that the verifier accepts', async () => {
    const r = recorder();
    const client = createClient({ ...credentials, baseUrl: 'https://api.test', fetch: r.fetch });
    await client.messaging.send({ phoneNumber: '+1 (555) 555-1234', message: 'Grüße', messageType: 'OTP', externalId: 'o-1', extra: { custom_field: 'yes' } });
    const req = r.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('https://api.test/v1/messaging');
    expect(req.headers.get('content-type')).toBe('application/x-www-form-urlencoded');
    const body = await req.text();
    expect(Object.fromEntries(new URLSearchParams(body))).toEqual({ custom_field: 'yes', phone_number: '15555551234', external_id: 'o-1', message: 'Grüße', message_type: 'OTP' });
    const result = await verifyRequest({ method: req.method, url: req.url, headers: req.headers, body }, { credentials: () => credentials });
    expect(result).toMatchObject({ ok: true, scheme: 'digest' });
    expect(req.headers.get('user-agent')).toMatch(/^x-sdk-client\/\S+ Node\/\d+/);
  });

  it('counts lengths in characters (code points), not UTF-16 units', async () => {
    const r = recorder();
    const client = createClient({ ...credentials, baseUrl: 'https://api.test', fetch: r.fetch });
    const emoji = '\u{1F600}'; // one character, two UTF-16 units
    await client.messaging.send({ phoneNumber: '15555551234', message: emoji.repeat(1600), messageType: 'ARN', senderId: emoji.repeat(20) });
    expect(new URLSearchParams(await r.requests[0]!.text()).get('message')).toBe(emoji.repeat(1600));
    await expect(client.messaging.send({ phoneNumber: '15555551234', message: `${emoji.repeat(1600)}a`, messageType: 'ARN' })).rejects.toMatchObject({ field: 'message' });
    await expect(client.messaging.send({ phoneNumber: '15555551234', message: 'a'.repeat(1601), messageType: 'ARN' })).rejects.toMatchObject({ field: 'message' });
    await expect(client.messaging.send({ phoneNumber: '15555551234', message: 'x', messageType: 'ARN', senderId: emoji.repeat(21) })).rejects.toMatchObject({ field: 'senderId' });
    expect(r.requests).toHaveLength(1);
  });

  it('sends phone numbers as digits, whether given as digits or written out', async () => {
    const r = recorder();
    const client = createClient({ ...credentials, baseUrl: 'https://api.test', fetch: r.fetch });
    for (const phoneNumber of ['15555551234', '+15555551234', '+1 555 555 1234', '1 (555) 555-1234', '1.555.555.1234']) {
      await client.messaging.send({ phoneNumber, message: 'x', messageType: 'ARN' });
    }
    const sent = await Promise.all(r.requests.map(async (req) => new URLSearchParams(await req.text()).get('phone_number')));
    expect(sent).toEqual(Array.from({ length: 5 }, () => '15555551234'));
    for (const phoneNumber of ['1555555', '1555555123456789', '1555555123a', ' ', '++15555551234']) {
      await expect(client.messaging.send({ phoneNumber, message: 'x', messageType: 'ARN' })).rejects.toMatchObject({ field: 'phoneNumber' });
    }
    expect(r.requests).toHaveLength(5);
  });

  it('keeps extra fields first in the form, and the named fields win over them', async () => {
    const r = recorder();
    const client = createClient({ ...credentials, baseUrl: 'https://api.test', fetch: r.fetch });
    await client.messaging.send({ phoneNumber: '15555551234', message: 'hi', messageType: 'ARN', senderId: 'ACME', extra: { phone_number: '0', zeta: 'z', message: 'no' } });
    expect([...new URLSearchParams(await r.requests[0]!.text())]).toEqual([
      ['phone_number', '15555551234'],
      ['zeta', 'z'],
      ['message', 'hi'],
      ['message_type', 'ARN'],
      ['sender_id', 'ACME'],
    ]);
  });

  it('puts the verify code in the query, which is not signed', async () => {
    const r = recorder(200, { reference_id: 'A'.repeat(32), sub_resource: 'sms', errors: [], status: {}, verify: {} });
    const client = createClient({ ...credentials, baseUrl: 'https://api.test/', fetch: r.fetch });
    await client.verify.check('a'.repeat(32), '12345');
    const req = r.requests[0]!;
    expect(req.url).toBe(`https://api.test/v1/verify/${'a'.repeat(32)}?verify_code=12345`);
    expect(await verifyRequest({ method: 'GET', url: req.url, headers: req.headers }, { credentials: () => credentials })).toMatchObject({ ok: true });
  });

  it('sends PhoneID as JSON with add-ons', async () => {
    const r = recorder();
    const client = createClient({ ...credentials, fetch: r.fetch });
    await client.phoneId.lookup('15555551234', { addons: { contact: {} }, accountLifecycleEvent: 'create' });
    const req = r.requests[0]!;
    expect(req.url).toBe('https://rest-api.telesign.com/v1/phoneid/15555551234');
    expect(req.headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(await req.text())).toEqual({ account_lifecycle_event: 'create', addons: { contact: {} } });
  });

  it('sends PhoneID as a form when asked, and refuses add-ons in a form', async () => {
    const r = recorder();
    const client = createClient({ ...credentials, fetch: r.fetch });
    await client.phoneId.lookup('15555551234', { encoding: 'form', originatingIp: '203.0.113.7' });
    expect(r.requests[0]!.headers.get('content-type')).toBe('application/x-www-form-urlencoded');
    expect(await r.requests[0]!.text()).toBe('originating_ip=203.0.113.7');
    await expect(Promise.resolve().then(() => client.phoneId.lookup('15555551234', { encoding: 'form', addons: { contact: {} } }))).rejects.toMatchObject({ field: 'addons' });
    expect(r.requests).toHaveLength(1);
  });

  it('sends the documented verify extras, and wants amount and payee together', async () => {
    const r = recorder();
    const client = createClient({ ...credentials, fetch: r.fetch });
    await client.verify.sms({ phoneNumber: '15555551234', transactionAmount: '10 EUR', transactionPayee: 'Acme', simSwapCheck: true, dltTemplateId: 't1', dltEntityId: 'e1', ucid: 'BACS', isPrimary: false });
    expect(Object.fromEntries(new URLSearchParams(await r.requests[0]!.text()))).toEqual({
      phone_number: '15555551234', ucid: 'BACS', is_primary: 'false', dlt_template_id: 't1', dlt_entity_id: 'e1', transaction_amount: '10 EUR', transaction_payee: 'Acme', sim_swap_check: 'true',
    });
    await expect(Promise.resolve().then(() => client.verify.sms({ phoneNumber: '15555551234', transactionAmount: '10 EUR' }))).rejects.toMatchObject({ field: 'transactionPayee' });
    expect(r.requests).toHaveLength(1);
  });

  it('Basic auth sends base64(id:key) and no x-ts headers', async () => {
    const r = recorder();
    const client = createClient({ ...credentials, auth: 'basic', fetch: r.fetch, userAgent: 'my-app/1.0' });
    await client.voice.status('B'.repeat(32));
    const req = r.requests[0]!;
    expect(req.headers.get('authorization')).toBe(`Basic ${btoa(`${credentials.customerId}:${credentials.apiKey}`)}`);
    expect(req.headers.get('x-ts-auth-method')).toBeNull();
    expect(req.headers.get('user-agent')).toBe('my-app/1.0');
  });

  it('the generic request signs any path, with query and JSON', async () => {
    const r = recorder();
    const client = createClient({ ...credentials, fetch: r.fetch });
    const result = await client.request<{ reference_id: string }>({ method: 'PUT', path: '/v1/verify/completion/' + 'C'.repeat(32), json: { a: 1 }, query: { x: 'y' } });
    expect(result.status).toBe(200);
    expect(result.data.reference_id).toHaveLength(32);
    expect(r.requests[0]!.url).toContain('?x=y');
  });

  it.each([
    ['a bad phone number', (c: ReturnType<typeof createClient>) => c.messaging.send({ phoneNumber: '12ab', message: 'x', messageType: 'OTP' }), 'phoneNumber'],
    ['an empty message', (c: ReturnType<typeof createClient>) => c.messaging.send({ phoneNumber: '15555551234', message: ' ', messageType: 'OTP' }), 'message'],
    ['a wrong message type', (c: ReturnType<typeof createClient>) => c.voice.call({ phoneNumber: '15555551234', message: 'x', messageType: 'SPAM' as never }), 'messageType'],
    ['a template without $$CODE$$', (c: ReturnType<typeof createClient>) => c.verify.sms({ phoneNumber: '15555551234', template: 'no code' }), 'template'],
    ['a 2-digit verify code', (c: ReturnType<typeof createClient>) => c.verify.sms({ phoneNumber: '15555551234', verifyCode: '12' }), 'verifyCode'],
    ['an 8-digit code to check', (c: ReturnType<typeof createClient>) => c.verify.check('A'.repeat(32), '12345678'), 'verifyCode'],
    ['a non-hex reference id', (c: ReturnType<typeof createClient>) => c.messaging.status('not-a-reference'), 'referenceId'],
    ['a bad callback URL', (c: ReturnType<typeof createClient>) => c.messaging.send({ phoneNumber: '15555551234', message: 'x', messageType: 'ARN', callbackUrl: 'nope' }), 'callbackUrl'],
    ['a long sender id', (c: ReturnType<typeof createClient>) => c.messaging.send({ phoneNumber: '15555551234', message: 'x', messageType: 'ARN', senderId: 'x'.repeat(21) }), 'senderId'],
  ])('rejects %s before the network', async (_name, run, field) => {
    const r = recorder();
    const client = createClient({ ...credentials, fetch: r.fetch });
    await expect(Promise.resolve().then(() => run(client))).rejects.toMatchObject({ name: 'ValidationError', code: 'validation_error', field });
    expect(r.requests).toHaveLength(0);
  });

  it('the generic request refuses a path without a leading slash, before the network', async () => {
    const r = recorder();
    const client = createClient({ ...credentials, fetch: r.fetch });
    await expect(client.request({ method: 'GET', path: 'v1/messaging' })).rejects.toMatchObject({ code: 'validation_error', field: 'path' });
    expect(r.requests).toHaveLength(0);
  });

  it('configuration errors are clear and never echo the key', () => {
    expect(() => createClient({ ...credentials, apiKey: 'not base64!' })).toThrow(ConfigurationError);
    try {
      createClient({ ...credentials, apiKey: 'not base64!' });
    } catch (error) {
      expect(String(error)).not.toContain('not base64!');
    }
    expect(() => createClient({ ...credentials, baseUrl: 'no-scheme' })).toThrow(/absolute URL/);
    expect(() => createClient({ ...credentials, fetch: 42 as never })).toThrow(/No fetch/);
    expect(() => createClient({ ...credentials, customerId: '' })).toThrow(ConfigurationError);
    expect(new ValidationError('x', 'y')).toBeInstanceOf(Error);
  });
});

// Every status and error code the emulator can produce carries the description the service
// references give it. REFERENCE below is copied from the service's facts (docs/service.md §11, §12;
// the codes of each operation's section), not from the emulator: a description matches when the
// reference's words appear in it in order (a detail may follow, e.g. the parameter at fault).
// Two checks: every code in the emulator's tables (codes.ts), and every code found in the answers
// and callbacks of a walk through all routes, errors, auth failures, faults and test numbers.
import { basicAuthorization, INBOUND_SMS_STATUS_TEXT, signRequest, SMS_STATUS_TEXT, VOICE_STATUS_TEXT } from '@x/auth';
import { describe, expect, it } from 'vitest';
import { createEmulator, ERROR_TEXT, STATUS_TEXT } from '../src/index.js';
import { customer } from './helpers.js';

const REFERENCE: Record<number, string | string[]> = {
  // service.md §11.2 (Voice), §11.1 (SMS), §11.3 (PhoneID, bulk, inbound, completion, Verify API), §4.3 (add-ons), §8 (Verify API).
  100: 'Call answered', 101: 'Not answered', 102: 'Disconnect occurred before message completed', 103: 'Call in progress', 104: 'Wrong/invalid phone number',
  105: 'Call not handled yet', 106: 'Call failed', 107: 'Line busy', 108: 'Call canceled by TeleSign', 129: 'Call blocked by your request', 130: 'Call blocked by TeleSign',
  133: 'Call blocked due to high risk score', // service.md §6.2 (E-VV)
  200: 'Delivered to handset', 201: 'Message is read', 203: 'Delivered to gateway', 207: 'Error delivering SMS to handset (reason unknown)',
  210: 'Temporary phone error', 211: 'Permanent phone error', 220: 'Gateway/network cannot route message', 221: 'Message expired before delivery', 222: 'SMS not supported',
  229: 'Message blocked by your request', 230: 'Message blocked by TeleSign', 231: 'Invalid/unsupported', 232: 'Message blocked due to number deactivation event',
  233: 'Message blocked due to high risk score', 237: 'Message blocked in requested country', 238: 'Destination blocked by prefix', 250: 'Final status unknown',
  251: 'Sent out for delivery, no handset confirmation', 286: 'Transaction not attempted', 290: 'Message in progress', 291: 'Queued by TeleSign',
  292: 'Queued by gateway', 293: 'Bulk request accepted', 295: 'Status delayed',
  300: 'Transaction successfully completed', 301: 'Transaction partially completed', 500: 'Transaction not attempted', 501: 'Not authorized',
  502: 'Campaign error', 503: 'Carrier rejected – temporary problem', 504: 'Carrier rejected – permanent error', 505: 'Error on gateway – temporary error',
  506: 'Error on gateway – permanent error', 507: 'Invalid destination address', 508: 'Invalid source address', 509: 'Parameters problem',
  510: 'Message blocked by subscriber action or request', 511: 'Subscriber low on credit', 512: 'Roaming error', 513: 'Mobile number portability error',
  514: 'Subscriber absent', 515: 'Suspected spam', 599: 'Status not available',
  1500: 'Delivered to customer', 1900: 'Verify completion successfully recorded',
  2800: 'Request successfully completed', 2801: 'invalid addons parameter', 2803: 'out of coverage', 2804: 'number not applicable', 2805: 'no information for number', 2807: 'some parameters invalid',
  3000: 'delivered', 3001: 'Message in progress', 3003: 'delivery error', 3900: 'verification successful', 3904: 'Verification failed', 3909: 'invalid code',
  3931: 'invalid workflow (already finalized)', 3935: 'Code validity expired',
  // service.md §12.2 (positive family).
  10002: 'x-ts-nonce used recently', 10003: 'x-ts-nonce too long or too short', 10004: 'Date / x-ts-date not within tolerable range',
  10005: 'Date / x-ts-date not RFC822 compliant', 10006: 'invalid x-ts-auth-method header', 10007: 'missing Date / x-ts-date', 10008: 'Invalid signature',
  10013: 'CustomerID account not found', 10017: 'Customer ID / Reference ID not found', 10019: 'Rate Limit Exceeded',
  11000: 'invalid value for parameter', 11002: 'invalid value for parameter account_id', 11003: 'invalid value for parameter account_lifecycle_event',
  11004: 'invalid value for parameter callback_url', 11006: 'invalid value for parameter device_id', 11007: 'invalid value for parameter email_address',
  11009: 'invalid value for parameter message', 11010: 'invalid value for parameter originating_ip', 11011: 'invalid value for parameter reference_id',
  11013: 'invalid value for parameter sender_id', 11016: 'invalid value for parameter external_id', 11017: 'invalid value for parameter message_type',
  11018: 'invalid value for parameter voice', 12000: 'missing phone_number', 12003: 'missing account_lifecycle_event', 12009: 'missing message', 12017: 'missing message_type',
  // service.md §12.3 (negative family; -10001's text varies).
  [-10001]: ['invalid request', 'CustomerID/ReferenceID not found'], [-30000]: 'invalid Customer ID', [-30004]: 'missing Authorization header',
  [-30005]: 'Authorization header wrong format', [-30006]: 'Invalid Signature', [-30007]: 'missing Date / x-ts-date', [-30008]: 'invalid x-ts-auth-method',
  [-30009]: 'Date not RFC822 compliant', [-30010]: 'Date not within tolerable range', [-30011]: 'nonce too long / too short', [-30012]: 'nonce used recently',
  [-30013]: 'invalid ReferenceID for Verify Completion', [-30015]: 'Invalid API Key', [-40004]: 'Resource Not Found', [-40005]: 'Method Not Allowed',
  [-40006]: 'Bad request', [-40007]: 'Rate Limit Exceeded', [-60001]: 'PhoneID Live Data Not Found', [-90001]: 'System Unavailable, please try again later',
  // service.md §8 (Verify API).
  3101: 'phone_number', 3103: 'external_id', 3110: 'invalid request', 3116: 'payload', 3119: 'invalid email', 3204: 'rate limit', 3302: 'phone_number',
  3309: 'email', 3400: 'not authorized', 3500: 'unavailable',
};

/** The reference's words appear in the description in order (case-insensitive). */
function matches(description: string, reference: string): boolean {
  const text = description.toLowerCase();
  let at = 0;
  for (const word of reference.toLowerCase().split(/[\s/()]+/).filter((w) => w !== '')) {
    const found = text.indexOf(word, at);
    if (found < 0) return false;
    at = found + word.length;
  }
  return true;
}

const agrees = (code: number, description: string) => {
  const reference = REFERENCE[code];
  return reference !== undefined && [reference].flat().some((r) => matches(description, r));
};

describe('the emulator\'s tables of codes', () => {
  it.each(Object.entries({ ...STATUS_TEXT, ...ERROR_TEXT }).map(([code, text]) => [Number(code), text] as const))('%i "%s" has the reference\'s description', (code, text) => {
    expect(agrees(code, text), `${code}: "${text}" vs the reference's ${JSON.stringify(REFERENCE[code])}`).toBe(true);
  });
});

describe('one table of facts', () => {
  it("the emulator's status texts are @x/auth's (SMS, voice, inbound SMS), word for word", () => {
    for (const table of [SMS_STATUS_TEXT, VOICE_STATUS_TEXT, INBOUND_SMS_STATUS_TEXT]) {
      for (const [code, text] of Object.entries(table)) expect(STATUS_TEXT[Number(code)], `code ${code}`).toBe(text);
    }
  });

  it("@x/auth's status texts have the reference's description (en dashes included)", () => {
    for (const [code, text] of Object.entries({ ...SMS_STATUS_TEXT, ...VOICE_STATUS_TEXT, ...INBOUND_SMS_STATUS_TEXT })) {
      expect(agrees(Number(code), text), `${code}: "${text}" vs the reference's ${JSON.stringify(REFERENCE[Number(code)])}`).toBe(true);
    }
  });
});

describe('every code found while walking the routes', () => {
  it('has the reference\'s description (answers, add-on sections, Verify API steps, callbacks)', async () => {
    let clock = Date.now();
    const delivered: string[] = [];
    const emulator = createEmulator({
      now: () => clock,
      deliveryDelayMs: 1_000,
      customers: [{ ...customer, callbackUrl: 'http://receiver.test/cb' }],
      callbacks: { fetch: async (_url: unknown, init?: RequestInit) => (delivered.push(String(init?.body)), new Response('', { status: 200 })) },
    });
    const found: Array<{ code: number; description?: string; where: string }> = [];
    const collect = (value: unknown, where: string) => {
      if (Array.isArray(value)) value.forEach((v) => collect(v, where));
      else if (typeof value === 'object' && value !== null) {
        const o = value as Record<string, unknown>;
        if (typeof o.code === 'number' && typeof o.description === 'string') found.push({ code: o.code, description: o.description, where });
        if (typeof o.err_code === 'number') found.push({ code: o.err_code, where });
        Object.values(o).forEach((v) => collect(v, where));
      }
    };
    const send = async (method: string, path: string, init: { form?: Record<string, string>; json?: unknown; raw?: string; type?: string; headers?: (h: Record<string, string>) => Record<string, string>; basic?: boolean } = {}) => {
      const url = `http://emulator.test${path}`;
      const body = init.raw ?? (init.form ? new URLSearchParams(init.form).toString() : init.json !== undefined ? JSON.stringify(init.json) : undefined);
      const contentType = init.type ?? (init.form ? 'application/x-www-form-urlencoded' : init.json !== undefined ? 'application/json' : undefined);
      let headers: Record<string, string> = init.basic
        ? { authorization: basicAuthorization(customer), ...(contentType ? { 'content-type': contentType } : {}) }
        : signRequest({ method, url, ...(contentType ? { contentType } : {}), ...(body ? { body } : {}) }, customer, { date: new Date(clock) }).headers;
      if (init.headers) headers = init.headers(headers);
      const response = await emulator.fetch(url, { method, headers, ...(body !== undefined ? { body } : {}) });
      const json = await response.json();
      collect(json, `${method} ${path}`);
      return json;
    };

    const ids: string[] = [];
    const phones = ['15555550100', '15555550001', '15555550002', '15555550003', '15555550004', '15555550005', '15555550006', '15555550007', '15555550008', '99912345678', '4407911123456'];
    for (const phone of phones) {
      ids.push((await send('POST', '/v1/messaging', { form: { phone_number: phone, message: 'x', message_type: 'ARN' } })).reference_id);
      ids.push((await send('POST', '/v1/voice', { form: { phone_number: phone, message: 'x', message_type: 'ARN' } })).reference_id);
      ids.push((await send('POST', '/v1/verify/sms', { form: { phone_number: phone } })).reference_id);
      ids.push((await send('POST', '/v1/verify/call', { form: { phone_number: phone, call_forward_action: 'block' } })).reference_id);
      await send('POST', `/v1/phoneid/${phone}`, { json: { addons: { contact: {}, contact_plus: {}, contact_match: { first_name: 'A' }, number_deactivation: {}, subscriber_status: {}, sim_swap: {}, porting_status: {}, porting_history: {}, call_forward_detection: {}, age_verify: {}, breached_data: {}, device_info: {}, bogus: {} } } });
      for (const variant of ['standard', 'live', 'number_deactivation']) await send('GET', `/v1/phoneid/${variant}/${phone}?ucid=ATCK`);
      await send('POST', `/v1/score/${phone}`, { form: { account_lifecycle_event: 'create' } });
      await send('POST', '/intelligence/phone', { form: { phone_number: phone, account_lifecycle_event: 'create' } });
      const v = await send('POST', '/verification', { json: { recipient: { phone_number: phone, email: 'a@example.com' }, verification_policy: [{ method: 'sms', fallback_time: 30 }, { method: 'whatsapp', fallback_time: 30 }, { method: 'email' }], security_factor: '1234' } });
      if (v.reference_id) ids.push(v.reference_id);
    }
    await send('POST', '/v1/verify/bulk_sms', { form: { recipients: phones.slice(0, 9).map((p, i) => `${p}:r${i}`).join(','), template: 'x' } });
    await send('PUT', `/v1/verify/completion/${ids[2]}`, { form: {} });
    await send('PUT', `/v1/verify/completion/${ids[0]}`, { form: {} });
    emulator.inbound({ from: '15555550100', to: '15555559999', text: 'STOP' });

    // Validation errors of every product.
    for (const form of <Array<Record<string, string>>>[{}, { phone_number: 'x' }, { phone_number: '15555550100' }, { phone_number: '15555550100', message: 'x' }, { phone_number: '15555550100', message: 'x', message_type: 'Q' }, { phone_number: '15555550100', message: 'x'.repeat(1601), message_type: 'ARN' }, { phone_number: '15555550100', message: 'x', message_type: 'ARN', callback_url: 'x' }, { phone_number: '15555550100', message: 'x', message_type: 'ARN', sender_id: '' }, { phone_number: '15555550100', message: 'x', message_type: 'ARN', external_id: '' }, { phone_number: '15555550100', message: 'x', message_type: 'ARN', originating_ip: 'x' }, { phone_number: '15555550100', message: 'x', message_type: 'ARN', account_lifecycle_event: 'x' }]) {
      await send('POST', '/v1/messaging', { form });
      await send('POST', '/v1/verify/sms', { form });
      await send('POST', '/v1/verify/call', { form });
    }
    await send('POST', '/v1/voice', { form: { phone_number: '15555550100', message: 'x', message_type: 'ARN', voice: 'nope' } });
    for (const form of <Array<Record<string, string>>>[{}, { account_lifecycle_event: 'x' }, { account_lifecycle_event: 'create', email_address: 'x' }, { account_lifecycle_event: 'create', device_id: '' }, { account_lifecycle_event: 'create', account_id: '' }]) await send('POST', '/v1/score/15555550100', { form });
    for (const json of [{}, { recipient: {} }, { recipient: { phone_number: 'x' } }, { recipient: { phone_number: '15555550100' }, verification_policy: [{ method: 'email' }] }, { recipient: { phone_number: '15555550100', email: 'x' } }, { recipient: { phone_number: '15555550100' }, external_id: 'é' }]) await send('POST', '/verification', { json });
    await send('POST', '/verification', { raw: '{"padding":"' + 'y'.repeat(11_000) + '"}', type: 'application/json' });
    await send('POST', '/bulk', { form: {} });
    await send('POST', '/v1/verify/bulk_sms', { form: {} });
    for (const path of ['/v1/messaging/x', '/v1/verify/x', '/verification/0123456789ABCDEF0123456789ABCDEF', '/v1/messaging/0123456789ABCDEF0123456789ABCDEF', '/v1/verify/0123456789ABCDEF0123456789ABCDEF', '/v1/phoneid/live/x']) await send('GET', path);
    for (const path of ['/v1/messaging', '/v1/verify/sms', '/verification', '/v1/unknown', '/v1/verify/unknown']) {
      await send('DELETE', path);
      await send('POST', path, { raw: '{', type: 'application/json' });
      await send('POST', path, { raw: 'x'.repeat(70_000), type: 'text/plain' });
      for (const status of [429, 503] as const) {
        emulator.faults.add({ type: 'status', status });
        await send('GET', path);
      }
      // Every authentication failure, in each family.
      const tamper: Array<(h: Record<string, string>) => Record<string, string>> = [
        () => ({}),
        () => ({ authorization: 'Bearer x' }),
        (h) => ({ ...h, authorization: h.authorization!.replace(customer.customerId, '00000000-0000-4000-8000-00000000dead') }),
        (h) => ({ ...h, authorization: h.authorization!.replace(/:.*/, ':AAAA') }),
        (h) => ({ ...h, 'x-ts-auth-method': 'HMAC-MD5' }),
        (h) => ({ authorization: h.authorization!, 'x-ts-auth-method': h['x-ts-auth-method']! }),
        (h) => ({ ...h, 'x-ts-date': 'yesterday' }),
        (h) => ({ ...h, 'x-ts-nonce': 'x' }),
        () => ({ authorization: basicAuthorization({ customerId: customer.customerId, apiKey: 'd3Jvbmcta2V5' }) }),
      ];
      for (const t of tamper) await send('GET', path, { headers: t });
      const replay = signRequest({ method: 'GET', url: `http://emulator.test${path}` }, customer, { date: new Date(clock) }).headers;
      await send('GET', path, { headers: () => replay });
      await send('GET', path, { headers: () => replay });
      await send('GET', path, { headers: () => signRequest({ method: 'GET', url: `http://emulator.test${path}` }, customer, { date: new Date(clock - 3_600_000) }).headers });
    }

    // Time passes: final statuses, fallbacks, expiries, callbacks; then every status and every finalize outcome.
    clock += 2_000;
    for (const id of ids) for (const path of [`/v1/messaging/${id}`, `/v1/voice/${id}`, `/v1/verify/${id}?verify_code=1234`, `/verification/${id}`]) await send('GET', path);
    clock += 400_000;
    await emulator.idle();
    for (const id of ids) await send('GET', `/verification/${id}`);
    const fresh = (await send('POST', '/verification', { json: { recipient: { phone_number: '15555550100' }, security_factor: '1234' } })).reference_id;
    for (const code of ['0000', '0001', '0002', '1234']) await send('PATCH', `/verification/${fresh}/state`, { json: { action: 'finalize', security_factor: code }, basic: true });
    const ok = (await send('POST', '/verification', { json: { recipient: { phone_number: '15555550100' }, security_factor: '1234' } })).reference_id;
    await send('PATCH', `/verification/${ok}/state`, { json: { action: 'finalize', security_factor: '1234' }, basic: true });
    await send('PATCH', `/verification/${ids[ids.length - 1]}/state`, { json: { action: 'finalize', security_factor: '1234' }, basic: true });
    await emulator.idle();
    for (const body of delivered) collect(JSON.parse(body), 'callback');
    emulator.close();

    const wrong = found.filter((f) => (f.description === undefined ? REFERENCE[f.code] === undefined : !agrees(f.code, f.description)));
    expect(wrong, JSON.stringify(wrong.slice(0, 5))).toEqual([]);
    // The walk reached the families and the products it claims to.
    const codes = new Set(found.map((f) => f.code));
    for (const code of [100, 101, 104, 107, 130, 200, 207, 222, 230, 293, 300, 301, 1500, 1900, 2800, 2801, 2803, 2804, 2805, 2807, 3000, 3001, 3003, 3900, 3904, 3909, 3931, 3935, 10008, 10013, 10017, 11000, 12000, -10001, -30006, -30013, -40004, -40005, -60001, -90001, 3110, 3116, 3302, 3400, 3204, 3500]) {
      expect(codes.has(code), `code ${code} reached`).toBe(true);
    }
  });
});

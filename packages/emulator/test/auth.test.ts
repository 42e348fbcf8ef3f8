import { basicAuthorization, enableSha1 } from '@x/auth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../src/node.js';
import { call, customer } from './helpers.js';

enableSha1(); // one test signs with HMAC-SHA1, which signers load only when asked

let server: RunningEmulator;
let clock = Date.now();
beforeAll(async () => {
  server = await startEmulator({ now: () => clock });
});
afterAll(() => server.close());

const sms = { phone_number: '15555550100', message: 'hello', message_type: 'ARN' };
const MIN = 60_000;

describe('authentication over HTTP (part 5, part 7)', () => {
  it('accepts a signed request (X-TS-Date, SHA-256)', async () => {
    clock = Date.now();
    const r = await call(server.url, 'POST', '/v1/messaging', { form: sms });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/json');
  });

  it('accepts the official layout (Date header) and HMAC-SHA1', async () => {
    clock = Date.now();
    expect((await call(server.url, 'POST', '/v1/messaging', { form: sms, options: { dateHeader: 'date' } })).status).toBe(200);
    expect((await call(server.url, 'POST', '/v1/messaging', { form: sms, options: { algorithm: 'HMAC-SHA1' } })).status).toBe(200);
  });

  it('accepts Basic', async () => {
    const response = await fetch(`${server.url}/v1/messaging`, {
      method: 'POST',
      headers: { authorization: basicAuthorization(customer), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(sms),
    });
    expect(response.status).toBe(200);
  });

  it('401 with 10007 / -30007 when neither Date nor X-TS-Date is sent', async () => {
    for (const [path, method, check] of [
      ['/v1/messaging', 'POST', (b: any) => expect(b.status.code).toBe(10007)],
      ['/v1/verify/sms', 'POST', (b: any) => expect(b.errors[0].code).toBe(-30007)],
    ] as const) {
      const r = await call(server.url, method, path, { form: sms, headers: { 'x-ts-date': '' } });
      expect(r.status).toBe(401);
      check(r.body);
    }
  });

  it.each([
    ['missing Authorization', { authorization: '' }, 10008, -30004],
    ['malformed Authorization', { authorization: 'TSA nope' }, 10008, -30005],
    ['unknown customer', { authorization: 'TSA 11111111-0000-4000-8000-000000000000:AAAA' }, 10013, -30000],
    ['bad auth method', { 'x-ts-auth-method': 'HMAC-MD5' }, 10006, -30008],
    ['not an RFC 2616 date', { 'x-ts-date': '2024-01-01T00:00:00Z' }, 10005, -30009],
    ['nonce too short', { 'x-ts-nonce': 'abc' }, 10003, -30011],
    ['tampered signature (body changed)', { 'x-ts-other': 'added after signing' }, 10008, -30006],
  ])('401 for %s, with both code families', async (_name, headers, positive, negative) => {
    clock = Date.now();
    const a = await call(server.url, 'POST', '/v1/messaging', { form: sms, headers });
    expect(a.status).toBe(401);
    expect(a.body.status.code).toBe(positive);
    const b = await call(server.url, 'POST', '/v1/verify/sms', { form: { phone_number: '15555550100' }, headers });
    expect(b.status).toBe(401);
    expect(b.body.errors[0].code).toBe(negative);
    expect(b.body.status.code).toBe(negative === -30008 ? 500 : 501);
  });

  it('a signature mismatch answers with signature_string, never the key', async () => {
    const r = await call(server.url, 'POST', '/v1/messaging', { form: sms, headers: { 'x-ts-extra': 'x' } });
    expect(r.body.signature_string).toContain('x-ts-extra:x\n');
    expect(r.text).not.toContain(customer.apiKey);
  });

  it.each([
    ['14 min 59 s behind', -15 * MIN + 1000, 200],
    ['14 min 59 s ahead', 15 * MIN - 1000, 200],
    ['15 min 1 s behind', -15 * MIN - 1000, 401],
    ['15 min 1 s ahead', 15 * MIN + 1000, 401],
  ])('clock window: client %s', async (_name, offset, status) => {
    clock = Date.now();
    const r = await call(server.url, 'POST', '/v1/messaging', { form: sms, options: { date: new Date(clock + offset) } });
    expect(r.status).toBe(status);
    if (status === 401) expect(r.body.status.code).toBe(10004);
  });

  it('a nonce is accepted once within 15 minutes (10002 / -30012 after)', async () => {
    clock = Date.now();
    const nonce = `nonce-${Math.random()}`;
    expect((await call(server.url, 'POST', '/v1/messaging', { form: sms, options: { nonce } })).status).toBe(200);
    const again = await call(server.url, 'POST', '/v1/messaging', { form: sms, options: { nonce } });
    expect(again.status).toBe(401);
    expect(again.body.status.code).toBe(10002);
  });

  it('a 256-character nonce is accepted', async () => {
    clock = Date.now();
    expect((await call(server.url, 'GET', '/v1/voice', { options: { nonce: 'n'.repeat(256) } })).status).toBe(200);
  });
});

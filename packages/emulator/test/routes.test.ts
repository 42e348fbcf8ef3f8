// The app as product modules: every answer in the family of the product it belongs to, unknown
// operations answered 404 (never 405 from a neighbouring route's parameter), errors logged.
import { signRequest, type ReplayStore } from '@x/auth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator } from '../src/index.js';
import { startEmulator, type RunningEmulator } from '../src/node.js';
import { call, customer } from './helpers.js';

let server: RunningEmulator;
beforeAll(async () => {
  server = await startEmulator();
});
afterAll(() => server.close());

/** A signed request with a raw body and content type of our choosing. */
async function raw(method: string, path: string, body?: string, contentType?: string) {
  const url = `${server.url}${path}`;
  const { headers } = signRequest({ method, url, ...(contentType ? { contentType } : {}), ...(body !== undefined ? { body } : {}) }, customer);
  const response = await fetch(url, { method, headers, body });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

describe('unknown operations answer 404 in their family, never 405 from a neighbouring route', () => {
  it('POST /v1/verify/smart (Smart Verify, not emulated) is a Verify-family 404, not 405 Allow: GET', async () => {
    const r = await call(server.url, 'POST', '/v1/verify/smart', { form: { phone_number: '15555550100' } });
    expect(r.status).toBe(404);
    expect(r.headers.get('allow')).toBeNull();
    expect(r.headers.get('content-type')).toBe('application/json');
    expect(r.body.errors).toEqual([{ code: -40004, description: expect.any(String) }]);
    expect(r.body.status.code).toBe(500);
  });

  it('PUT /v1/verify/other/{id}, POST /v1/messaging/{word}, POST /v1/omnichannel are 404 in their families', async () => {
    const other = await call(server.url, 'PUT', '/v1/verify/other/0123456789ABCDEF0123456789ABCDEF');
    expect(other.status).toBe(404);
    expect(other.body.errors[0].code).toBe(-40004);
    const omni = await call(server.url, 'POST', '/v1/omnichannel', { json: {} });
    expect(omni.status).toBe(404);
    expect(omni.body.status.code).toBe(-40004);
    const variant = await call(server.url, 'GET', '/v1/phoneid/contact/15555550100');
    expect(variant.status).toBe(404);
    expect(variant.headers.get('allow')).toBeNull();
    // Legacy PhoneID GETs answer in the negative family, as the neighbouring GET variants do.
    expect(variant.body.errors).toEqual([{ code: -40004, description: expect.any(String) }]);
    const score = await call(server.url, 'GET', '/v1/phoneid/score/15555550100');
    expect(score.status).toBe(404);
    expect(score.body.errors).toEqual([{ code: -40004, description: expect.any(String) }]);
    const messaging = await call(server.url, 'POST', '/v1/messaging/bulk', { form: { phone_number: '15555550100' } });
    expect(messaging.status).toBe(404);
    expect(messaging.headers.get('allow')).toBeNull();
    expect(messaging.body.errors).toBeUndefined();
    expect(messaging.body.status.code).toBe(-40004);
  });

  it('a known resource with a method it does not support is still 405 with Allow', async () => {
    const id = '0123456789ABCDEF0123456789ABCDEF';
    for (const [path, allow] of [[`/v1/messaging/${id}`, 'GET'], [`/v1/verify/${id}`, 'GET'], [`/v1/voice/${id}`, 'GET'], ['/v1/phoneid/15555550100', 'POST']] as const) {
      const r = await call(server.url, 'DELETE', path);
      expect(r.status, path).toBe(405);
      expect(r.headers.get('allow'), path).toBe(allow);
    }
  });
});

describe('a body that cannot be read answers in the family of the product', () => {
  it('malformed JSON on messaging: 400 with a positive code in status.code, no Verify code', async () => {
    const r = await raw('POST', '/v1/messaging', '{"phone_number":', 'application/json');
    expect(r.status).toBe(400);
    expect(r.body.errors).toBeUndefined();
    expect(r.body.status.code).toBe(11000);
    expect(r.body.status.description).toMatch(/not valid JSON/);
  });

  it('malformed JSON on verify: 400 -40006 in errors[]', async () => {
    const r = await raw('POST', '/v1/verify/sms', '{"phone_number":', 'application/json');
    expect(r.status).toBe(400);
    expect(r.body.errors[0].code).toBe(-40006);
    expect(r.body.status.code).toBe(500);
  });

  it('a JSON array on voice: 400 11000; an oversized body on messaging: 413 11000', async () => {
    const array = await raw('POST', '/v1/voice', '[1]', 'application/json');
    expect(array.status).toBe(400);
    expect(array.body.status.code).toBe(11000);
    const big = await call(server.url, 'POST', '/v1/messaging', { form: { message: 'x'.repeat(70_000) } });
    expect(big.status).toBe(413);
    expect(big.body.status.code).toBe(11000);
  });

  it('a body larger than its declared Content-Length (in process, where no HTTP parser holds it): still 413', async () => {
    const emulator = createEmulator({ maxBodyBytes: 1_000 });
    try {
      const body = `message=${'x'.repeat(5_000)}`;
      const url = 'http://emulator.test/v1/messaging';
      const { headers } = signRequest({ method: 'POST', url, contentType: 'application/x-www-form-urlencoded', body }, customer);
      const r = await emulator.fetch(url, { method: 'POST', headers: { ...headers, 'content-length': '10' }, body });
      expect(r.status).toBe(413);
    } finally {
      emulator.close();
    }
  });
});

describe('errors are logged and answered as JSON in the family of the product', () => {
  const failing: ReplayStore = {
    claim: () => Promise.reject(new Error('replay store unreachable (connection refused)')),
  };

  it('a failing replay store: 500 JSON in each family, the error given to the logger', async () => {
    const logged: Array<{ message: string; details?: Record<string, unknown> }> = [];
    const emulator = createEmulator({ replayStore: failing, logger: { error: (message, details) => logged.push({ message, details }), warn: () => undefined } });
    const send = (path: string, body: string) => {
      const url = `http://emulator.test${path}`;
      const { headers } = signRequest({ method: 'POST', url, contentType: 'application/x-www-form-urlencoded', body }, customer);
      return emulator.fetch(url, { method: 'POST', headers, body });
    };
    const sms = await send('/v1/messaging', 'phone_number=15555550100&message=x&message_type=ARN');
    expect(sms.status).toBe(500);
    expect(sms.headers.get('content-type')).toBe('application/json');
    expect((await sms.json()).status.code).toBe(500);
    const verify = await send('/v1/verify/sms', 'phone_number=15555550100');
    expect(verify.status).toBe(500);
    const body = await verify.json();
    expect(body.errors[0].code).toBe(-90001);
    expect(body.status.code).toBe(500);
    expect(logged).toHaveLength(2);
    expect(logged[0]!.details).toMatchObject({ method: 'POST', path: '/v1/messaging' });
    expect(String(logged[0]!.details!.error)).toContain('replay store unreachable');
    expect(JSON.stringify(logged)).not.toContain(customer.apiKey);
    emulator.close();
  });
});

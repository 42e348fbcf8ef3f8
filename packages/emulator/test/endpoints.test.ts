import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../src/node.js';
import { call } from './helpers.js';

let server: RunningEmulator;
let clock = Date.now();
beforeAll(async () => {
  server = await startEmulator({ now: () => clock, deliveryDelayMs: 5_000, verify: { expiryMs: 60_000, maxAttempts: 3 } });
});
afterAll(() => server.close());
const post = (path: string, form: Record<string, string>) => call(server.url, 'POST', path, { form });
const get = (path: string) => call(server.url, 'GET', path);

describe('messaging', () => {
  it('sends an SMS (290) that is delivered (200) after the delay, into the outbox', async () => {
    clock = Date.now();
    const sent = await post('/v1/messaging', { phone_number: '15555550101', message: 'Hello there', message_type: 'ARN', external_id: 'order-1' });
    expect(sent.status).toBe(200);
    expect(sent.body.reference_id).toMatch(/^[0-9A-F]{32}$/);
    expect(sent.body.status.code).toBe(290);
    expect(sent.body.external_id).toBe('order-1');
    expect(server.emulator.outbox.latest('15555550101')?.text).toBe('Hello there');
    expect((await get(`/v1/messaging/${sent.body.reference_id}`)).body.status.code).toBe(290);
    clock += 5_000;
    const later = await get(`/v1/messaging/${sent.body.reference_id}`);
    expect(later.body.status).toMatchObject({ code: 200, description: 'Delivered to handset' });
    expect(later.body.status.updated_on).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  });

  it.each([
    ['0001', 207], ['0002', 230], ['0004', 507], ['0005', 222],
  ])('test number ...%s ends with status %i', async (suffix, code) => {
    clock = Date.now();
    const sent = await post('/v1/messaging', { phone_number: `1555555${suffix}`, message: 'x', message_type: 'ARN' });
    clock += 5_000;
    expect((await get(`/v1/messaging/${sent.body.reference_id}`)).body.status.code).toBe(code);
  });

  it.each([
    [{ message: 'x', message_type: 'ARN' }, 12000],
    [{ phone_number: '12ab', message: 'x', message_type: 'ARN' }, 11000],
    [{ phone_number: '15555550100', message_type: 'ARN' }, 12009],
    [{ phone_number: '15555550100', message: 'x'.repeat(1601), message_type: 'ARN' }, 11009],
    [{ phone_number: '15555550100', message: 'x' }, 12017],
    [{ phone_number: '15555550100', message: 'x', message_type: 'SPAM' }, 11017],
    [{ phone_number: '15555550100', message: 'x', message_type: 'ARN', callback_url: 'ftp://x' }, 11004],
    [{ phone_number: '15555550100', message: 'x', message_type: 'ARN', sender_id: 'x'.repeat(21) }, 11013],
    [{ phone_number: '15555550100', message: 'x', message_type: 'ARN', account_lifecycle_event: 'login' }, 11003],
    [{ phone_number: '15555550100', message: 'x', message_type: 'ARN', originating_ip: '999.1.1.1' }, 11010],
  ])('400 %#: %o gives %i', async (form, code) => {
    const r = await post('/v1/messaging', form as Record<string, string>);
    expect(r.status).toBe(400);
    expect(r.body.status.code).toBe(code);
  });

  it('status of an unknown id is 404 10017; a non-hex id is 400 11011', async () => {
    expect((await get('/v1/messaging/0123456789ABCDEF0123456789ABCDEF')).body.status.code).toBe(10017);
    const bad = await get('/v1/messaging/not-hex');
    expect(bad.status).toBe(400);
    expect(bad.body.status.code).toBe(11011);
  });
});

describe('phoneid', () => {
  it('answers deterministically from the number, form or JSON', async () => {
    const a = await call(server.url, 'POST', '/v1/phoneid/4915555500000', { form: {} });
    const b = await call(server.url, 'POST', '/v1/phoneid/4915555500000', { json: {} });
    expect(a.status).toBe(200);
    expect(a.body.status.code).toBe(300);
    expect(a.body.location.country.iso2).toBe('DE');
    expect(a.body.numbering.original).toEqual({ complete_phone_number: '4915555500000', country_code: '49', phone_number: '15555500000' });
    expect(b.body.carrier).toEqual(a.body.carrier);
    expect(a.body.reference_id).not.toBe(b.body.reference_id);
  });

  it('returns phone types of the test numbers and the contact add-on over JSON', async () => {
    const voip = await call(server.url, 'POST', '/v1/phoneid/15555550003', { json: { addons: { contact: {} } } });
    expect(voip.body.phone_type).toEqual({ code: '5', description: 'VOIP' });
    expect(voip.body.contact.status.code).toBe(2800);
    const landline = await call(server.url, 'POST', '/v1/phoneid/15555550005', { form: {} });
    expect(landline.body.phone_type.description).toBe('FIXED_LINE');
  });

  it('400 for a bad number, and for a JSON body that does not parse', async () => {
    expect((await call(server.url, 'POST', '/v1/phoneid/abc', { json: {} })).body.status.code).toBe(11000);
    const { signRequest } = await import('@x/auth');
    const { customer } = await import('./helpers.js');
    const url = `${server.url}/v1/phoneid/15555550100`;
    const body = '{"addons":';
    const { headers } = signRequest({ method: 'POST', url, contentType: 'application/json', body }, customer);
    const r = await fetch(url, { method: 'POST', headers, body });
    expect(r.status).toBe(400);
    expect((await r.json()).status.description).toMatch(/not valid JSON/);
  });
});

describe('verify', () => {
  it('sends a generated 7-digit code in the default template; the right code is VALID', async () => {
    clock = Date.now();
    const started = await post('/v1/verify/sms', { phone_number: '15555550110' });
    expect(started.body).toMatchObject({ sub_resource: 'sms', errors: [], verify: { code_state: 'UNKNOWN', code_entered: '' } });
    expect(started.body.resource_uri).toBe(`/v1/verify/${started.body.reference_id}`);
    const message = server.emulator.outbox.latest('15555550110')!;
    const code = /\d{7}/.exec(message.text)![0];
    expect(message.text).toBe(`Your code is ${code}`);
    const wrong = await get(`/v1/verify/${started.body.reference_id}?verify_code=${code === '1234567' ? '7654321' : '1234567'}`);
    expect(wrong.body.verify).toEqual({ code_state: 'INVALID', code_entered: expect.any(String) });
    const right = await get(`/v1/verify/${started.body.reference_id}?verify_code=${code}`);
    expect(right.body.verify).toEqual({ code_state: 'VALID', code_entered: code });
  });

  it('renders a custom template with a given code', async () => {
    await post('/v1/verify/sms', { phone_number: '15555550111', verify_code: '4242', template: 'Code: $$CODE$$ (valid 5 min)' });
    expect(server.emulator.outbox.latest('15555550111')?.text).toBe('Code: 4242 (valid 5 min)');
  });

  it('EXPIRED after the expiry, MAX_ATTEMPTS_EXCEEDED after the limit even when right', async () => {
    clock = Date.now();
    const a = await post('/v1/verify/sms', { phone_number: '15555550112', verify_code: '1111' });
    clock += 61_000;
    expect((await get(`/v1/verify/${a.body.reference_id}?verify_code=1111`)).body.verify.code_state).toBe('EXPIRED');
    const b = await post('/v1/verify/sms', { phone_number: '15555550112', verify_code: '2222' });
    for (let i = 0; i < 3; i++) await get(`/v1/verify/${b.body.reference_id}?verify_code=9999`);
    expect((await get(`/v1/verify/${b.body.reference_id}?verify_code=2222`)).body.verify.code_state).toBe('MAX_ATTEMPTS_EXCEEDED');
  });

  it.each([
    [{ phone_number: '15555550100', verify_code: '12' }, 'verify_code'],
    [{ phone_number: '15555550100', verify_code: '12345678' }, 'verify_code'],
    [{ phone_number: '15555550100', template: 'no placeholder' }, '$$CODE$$'],
    [{ phone_number: '15555550100', language: 'english' }, 'language'],
    [{ verify_code: '1234' }, 'phone_number'],
  ])('400 -10001 for %o', async (form, mention) => {
    const r = await post('/v1/verify/sms', form as Record<string, string>);
    expect(r.status).toBe(400);
    expect(r.body.errors[0].code).toBe(-10001);
    expect(r.body.errors[0].description).toContain(mention);
  });

  it('unknown reference id: 404 -10001', async () => {
    const r = await get('/v1/verify/0123456789ABCDEF0123456789ABCDEF?verify_code=1234');
    expect(r.status).toBe(404);
    expect(r.body.errors[0].code).toBe(-10001);
  });
});

describe('voice', () => {
  it('places a call (103) that ends with the number outcome; GET lists calls', async () => {
    clock = Date.now();
    const placed = await post('/v1/voice', { phone_number: '15555550006', message: 'Your code is 1 2 3', message_type: 'OTP', voice: 'f-en-GB' });
    expect(placed.body.status.code).toBe(103);
    expect(server.emulator.outbox.latest('15555550006')).toMatchObject({ channel: 'voice', text: 'Your code is 1 2 3' });
    clock += 5_000;
    expect((await get(`/v1/voice/${placed.body.reference_id}`)).body.status.code).toBe(107);
    const list = await get('/v1/voice');
    expect(list.body.calls.map((c: { reference_id: string }) => c.reference_id)).toContain(placed.body.reference_id);
  });

  it('invalid voice is 11018', async () => {
    expect((await post('/v1/voice', { phone_number: '15555550100', message: 'x', message_type: 'OTP', voice: 'm-xx-XX' })).body.status.code).toBe(11018);
  });

  it('other methods: 405 with Allow: POST, GET', async () => {
    const r = await call(server.url, 'DELETE', '/v1/voice');
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('POST, GET');
    expect(r.headers.get('content-type')).toBe('application/json');
  });
});

describe('hostile input', () => {
  it('unknown paths are JSON 404', async () => {
    const r = await fetch(`${server.url}/v2/nothing`);
    expect(r.status).toBe(404);
    expect(r.headers.get('content-type')).toBe('application/json');
    expect((await r.json()).status.code).toBe(-40004);
  });

  it('oversized bodies get 413 without being read', async () => {
    const r = await call(server.url, 'POST', '/v1/messaging', { form: { message: 'x'.repeat(70_000) } });
    expect(r.status).toBe(413);
  });

  it('a body that is not UTF-8 gets 400, a garbage header 401, and the server lives on', async () => {
    const { signRequest } = await import('@x/auth');
    const bytes = new Uint8Array([0x70, 0x3d, 0xff, 0xfe]);
    const url = `${server.url}/v1/messaging`;
    const { headers } = signRequest({ method: 'POST', url, contentType: 'application/x-www-form-urlencoded', body: bytes }, (await import('./helpers.js')).customer);
    const r = await fetch(url, { method: 'POST', headers, body: bytes });
    expect(r.status).toBe(400);
    const g = await fetch(url, { method: 'POST', headers: { authorization: 'TSA \u00ff\u00fe:%%%', 'x-ts-date': 'garbage' } });
    expect(g.status).toBe(401);
    expect((await fetch(`${server.url}/v1/voice`)).status).toBe(401);
  });

  it('keeps at most maxTransactions', async () => {
    const { createEmulator } = await import('../src/index.js');
    const { signRequest } = await import('@x/auth');
    const { customer } = await import('./helpers.js');
    const small = createEmulator({ maxTransactions: 10, logger: { error: () => undefined, warn: () => undefined } });
    for (let i = 0; i < 25; i++) {
      const body = `phone_number=1555555${String(1000 + i)}&message=x&message_type=ARN`;
      const url = 'http://emulator.test/v1/messaging';
      const { headers } = signRequest({ method: 'POST', url, contentType: 'application/x-www-form-urlencoded', body }, customer);
      expect((await small.fetch(url, { method: 'POST', headers, body })).status).toBe(200);
    }
    expect(small.transactions.size).toBe(10);
    small.close();
  });
});

describe('routing corner', () => {
  it('GET /v1/verify/sms is 405 Allow: POST, not a status lookup', async () => {
    const r = await call(server.url, 'GET', '/v1/verify/sms');
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('POST');
  });
});

describe('more hostile input', () => {
  /** A chunked form POST to /v1/messaging (no Content-Length); `answered` gets the status and the request. */
  const chunkedPost = async (answered: (status: number, req: import('node:http').ClientRequest) => void) => {
    const { request } = await import('node:http');
    const req = request(`${server.url}/v1/messaging`, { method: 'POST', headers: { 'transfer-encoding': 'chunked', 'content-type': 'application/x-www-form-urlencoded' } }, (res) => {
      res.resume();
      answered(res.statusCode!, req);
    });
    return req;
  };

  it('an oversized chunked body (no Content-Length) gets 413 while streaming', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      void chunkedPost((code) => resolve(code)).then((req) => {
        req.on('error', reject);
        for (let i = 0; i < 40; i++) req.write('x'.repeat(4096));
        req.end();
      });
    });
    expect(status).toBe(413);
  });

  it('a chunked body that goes on past the limit gets 413 before it ends, and the server serves the next request', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      void chunkedPost((code, req) => {
        resolve(code);
        req.destroy();
      }).then((req) => {
        req.on('error', () => undefined); // destroyed by this test once answered
        // Past the 64 KiB limit, then nothing more and no end: the answer must not wait for the end.
        for (let i = 0; i < 20; i++) req.write('x'.repeat(4096));
      });
      setTimeout(() => reject(new Error('no answer while the body was still open')), 5_000).unref();
    });
    expect(status).toBe(413);
    expect((await call(server.url, 'POST', '/v1/messaging', { form: { phone_number: '15555550100', message: 'after', message_type: 'ARN' } })).status).toBe(200);
  });

  it('a client that leaves in the middle of its body gets no answer, and the server serves the next request', async () => {
    const { connect } = await import('node:net');
    const { port } = new URL(server.url);
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write(`POST /v1/messaging HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\nphone_number=1555`);
        setTimeout(() => socket.destroy(), 50);
      });
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
    expect((await call(server.url, 'POST', '/v1/messaging', { form: { phone_number: '15555550100', message: 'after', message_type: 'ARN' } })).status).toBe(200);
  });

  it('a malformed percent escape in the PhoneID path is a 400, not a 500', async () => {
    const r = await call(server.url, 'POST', '/v1/phoneid/%E0%A4%A', { form: {} });
    expect(r.status).toBe(400);
    expect(r.body.status.code).toBe(11000);
  });
});

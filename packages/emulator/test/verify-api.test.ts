// Verify API: create, get, finalize, the policy with fallbacks, and its state machine on an
// injected clock (no sleeps: the clock moves, `idle()` runs what is due).
import { callbackSignature } from '@x/auth';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../src/index.js';
import { startCallbackRecorder, customer, local, type LocalInit, type Received } from './helpers.js';

let clock = Date.now();
let emulator: Emulator;
const received: Received[] = [];
let receiver: Awaited<ReturnType<typeof startCallbackRecorder>>;
let callbackUrl: string;

beforeAll(async () => {
  receiver = await startCallbackRecorder({ received });
  callbackUrl = receiver.url;
});
afterAll(() => receiver.close());
beforeEach(async () => {
  clock = Date.now();
  // The previous test's callbacks are delivered before this one starts.
  if (emulator) await emulator.idle();
  emulator?.close();
  received.length = 0;
  emulator = createEmulator({ now: () => clock, deliveryDelayMs: 2_000, customers: [{ ...customer, callbackUrl }] });
});

const api = (method: string, path: string, init: LocalInit = {}) => local(emulator, method, path, init);
const create = (json: unknown) => api('POST', '/verification', { json });
const finalize = (id: string, code: string) => api('PATCH', `/verification/${id}/state`, { json: { action: 'finalize', security_factor: code }, basic: true });
const get = (id: string) => api('GET', `/verification/${id}`);
const codeOf = (to: string) => emulator.outbox.latest(to)!.code!;

describe('POST /verification', () => {
  it('sends the code by SMS (default policy), answers 3001 and ONGOING; the right code VERIFIES (3900) and ends it', async () => {
    const r = await create({ recipient: { phone_number: '15555550600' } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ state: 'ONGOING', status: { code: 3001, description: 'Message in progress' }, recipient: { phone_number: '15555550600' }, verification_policy: [{ method: 'sms', fallback_time: 60 }] });
    expect(r.body.inner_methods).toEqual([{ method: 'sms', state: 'ONGOING', err_code: 3001 }]);
    const sent = emulator.outbox.latest('15555550600')!;
    expect(sent).toMatchObject({ channel: 'sms', product: 'verify_api' });
    expect(sent.code).toMatch(/^\d{6}$/);
    clock += 2_000;
    expect((await get(r.body.reference_id)).body.inner_methods).toEqual([{ method: 'sms', state: 'ONGOING', err_code: 3000 }]);
    const done = await finalize(r.body.reference_id, sent.code!);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ state: 'VERIFIED', status: { code: 3900, description: 'Verification successful' } });
    expect((await get(r.body.reference_id)).body.state).toBe('VERIFIED');
    expect((await finalize(r.body.reference_id, sent.code!)).body.status.code).toBe(3931);
  });

  it('falls back when SMS fails (...0001): WhatsApp gets the same code after the delivery delay, with a fresh validity', async () => {
    const r = await create({ recipient: { phone_number: '15555550001' }, verification_policy: [{ method: 'sms', fallback_time: 30 }, { method: 'whatsapp' }], security_factor: '424242' });
    const id = r.body.reference_id;
    expect(emulator.outbox.list({ phoneNumber: '15555550001' }).map((m) => m.channel)).toEqual(['sms']);
    clock += 2_000;
    await emulator.idle();
    expect(emulator.outbox.list({ phoneNumber: '15555550001' }).map((m) => m.channel)).toEqual(['sms', 'whatsapp']);
    const now = await get(id);
    expect(now.body.inner_methods).toEqual([
      { method: 'sms', state: 'FAILED', err_code: 3003 },
      { method: 'whatsapp', state: 'ONGOING', err_code: 3001 },
    ]);
    clock += 250_000; // 252 s after creation: the SMS code would have expired, WhatsApp's has not.
    expect((await finalize(id, '424242')).body.status.code).toBe(3900);
  });

  it('falls back after fallback_time when the first method was delivered but not finalized; the superseded one is CANCELED', async () => {
    const r = await create({ recipient: { phone_number: '15555550601', email: 'user@example.com' }, verification_policy: [{ method: 'sms', fallback_time: 40 }, { method: 'email' }] });
    clock += 39_000;
    await emulator.idle();
    expect(emulator.outbox.latest('user@example.com')).toBeUndefined();
    clock += 1_000;
    await emulator.idle();
    expect(emulator.outbox.latest('user@example.com')).toMatchObject({ channel: 'email', code: codeOf('15555550601') });
    expect((await get(r.body.reference_id)).body.inner_methods.map((m: { state: string }) => m.state)).toEqual(['CANCELED', 'ONGOING']);
  });

  it('wrong codes: 3909 while attempts remain (still ONGOING), the third REJECTS (3904); then 3931', async () => {
    const r = await create({ recipient: { phone_number: '15555550602' }, security_factor: '1234' });
    const id = r.body.reference_id;
    expect((await finalize(id, '0000')).body).toMatchObject({ state: 'ONGOING', status: { code: 3909 } });
    expect((await finalize(id, '0001')).body.status.code).toBe(3909);
    expect((await finalize(id, '0002')).body).toMatchObject({ state: 'REJECTED', status: { code: 3904, description: 'Verification failed' } });
    expect((await finalize(id, '1234')).body.status.code).toBe(3931);
  });

  it('FAILS when the last method\'s code validity runs out (3935 after), or when every method failed (3904)', async () => {
    const late = await create({ recipient: { phone_number: '15555550603' }, security_factor: '999' });
    clock += 300_000;
    expect((await get(late.body.reference_id)).body.state).toBe('FAILED');
    expect((await finalize(late.body.reference_id, '999')).body).toMatchObject({ state: 'FAILED', status: { code: 3935, description: 'Code validity expired' } });
    const landline = await create({ recipient: { phone_number: '15555550005' }, verification_policy: [{ method: 'sms' }, { method: 'viber' }] });
    clock += 4_000;
    const failed = await get(landline.body.reference_id);
    expect(failed.body.state).toBe('FAILED');
    expect(failed.body.inner_methods.map((m: { err_code: number }) => m.err_code)).toEqual([3003, 3003]);
    expect((await finalize(landline.body.reference_id, '123456')).body.status.code).toBe(3904);
  });

  it('silent and push are not emulated: they fail at once and the next method takes over', async () => {
    const r = await create({ recipient: { phone_number: '15555550604' }, verification_policy: [{ method: 'silent' }, { method: 'sms' }] });
    expect(emulator.outbox.list({ phoneNumber: '15555550604' })).toHaveLength(0);
    clock += 2_000;
    await emulator.idle();
    expect(emulator.outbox.list({ phoneNumber: '15555550604' }).map((m) => m.channel)).toEqual(['sms']);
    expect((await get(r.body.reference_id)).body.inner_methods.map((m: { method: string; state: string }) => [m.method, m.state])).toEqual([['silent', 'FAILED'], ['sms', 'ONGOING']]);
  });

  it.each([
    [{}, 3110, 'recipient'],
    [{ recipient: {} }, 3302, 'Missing phone_number'],
    [{ recipient: { phone_number: '12ab' } }, 3101, 'Invalid phone_number'],
    [{ recipient: { phone_number: '15555550100' }, verification_policy: [{ method: 'email' }] }, 3309, 'Missing email'],
    [{ recipient: { phone_number: '15555550100', email: 'nope' } }, 3119, 'Invalid email'],
    [{ recipient: { phone_number: '15555550100' }, external_id: 'x'.repeat(101) }, 3103, 'external_id'],
    [{ recipient: { phone_number: '15555550100' }, security_factor: '12' }, 3110, 'security_factor'],
    [{ recipient: { phone_number: '15555550100' }, verification_policy: [] }, 3110, 'verification_policy'],
    [{ recipient: { phone_number: '15555550100' }, verification_policy: [{ method: 'sms' }, { method: 'sms' }, { method: 'sms' }, { method: 'sms' }] }, 3110, '1 to 3'],
    [{ recipient: { phone_number: '15555550100' }, verification_policy: [{ method: 'sms' }, { method: 'push' }] }, 3110, 'first'],
    [{ recipient: { phone_number: '15555550100' }, verification_policy: [{ method: 'fax' }] }, 3110, 'method'],
    [{ recipient: { phone_number: '15555550100' }, verification_policy: [{ method: 'sms', fallback_time: 29 }] }, 3110, 'fallback_time'],
    [{ recipient: { phone_number: '15555550100' }, verification_policy: [{ method: 'sms', fallback_time: 301 }] }, 3110, 'fallback_time'],
    [{ recipient: { phone_number: '15555550100' }, message_template: { name: 'Bad-Name' } }, 3110, 'message_template'],
  ])('400 for %o: %i', async (json, code, mention) => {
    const r = await create(json);
    expect(r.status).toBe(400);
    expect(r.body.status.code).toBe(code);
    expect(r.body.status.description).toContain(mention);
  });

  it('JSON only: a form body is 400 3110; broken JSON 400 3110; more than 10 KB is 413 3116', async () => {
    const form = await api('POST', '/verification', { form: { phone_number: '15555550100' } });
    expect(form.status).toBe(400);
    expect(form.body.status).toMatchObject({ code: 3110, description: expect.stringContaining('application/json') });
    const broken = await api('POST', '/verification', { body: '{"recipient":', contentType: 'application/json; charset=utf-8' });
    expect(broken.body.status.code).toBe(3110);
    const big = await create({ recipient: { phone_number: '15555550100' }, external_id: 'x', padding: 'y'.repeat(11 * 1024) });
    expect(big.status).toBe(413);
    expect(big.body.status.code).toBe(3116);
  });

  it('accepts fallback_time 30 (two official SDKs send it) and charset in the content type', async () => {
    const r = await api('POST', '/verification', { body: JSON.stringify({ recipient: { phone_number: '15555550605' }, verification_policy: [{ method: 'sms', fallback_time: 30 }] }), contentType: 'application/json; charset=utf-8' });
    expect(r.status).toBe(200);
  });
});

describe('auth, ids and methods', () => {
  it('create and get signed or Basic; finalize Basic (as every SDK) or signed; a wrong key is 401 3400', async () => {
    const basic = await api('POST', '/verification', { json: { recipient: { phone_number: '15555550610' } }, basic: true });
    expect(basic.status).toBe(200);
    expect((await api('GET', `/verification/${basic.body.reference_id}`, { basic: true })).status).toBe(200);
    const signed = await api('PATCH', `/verification/${basic.body.reference_id}/state`, { json: { action: 'finalize', security_factor: codeOf('15555550610') } });
    expect(signed.body.status.code).toBe(3900);
    const wrong = await api('GET', `/verification/${basic.body.reference_id}`, { credentials: { customerId: customer.customerId, apiKey: 'd3Jvbmcta2V5' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body.status).toMatchObject({ code: 3400, description: expect.stringMatching(/^Not authorized/) });
    expect(wrong.body.errors).toBeUndefined();
  });

  it('unknown id 404, malformed id 400 3110, another customer\'s id 404; action must be finalize', async () => {
    expect((await get('0123456789ABCDEF0123456789ABCDEF')).status).toBe(404);
    const bad = await get('xyz');
    expect(bad.status).toBe(404); // not a reference id: not an operation of the API
    const r = await create({ recipient: { phone_number: '15555550611' } });
    const other = createEmulator({ now: () => clock });
    expect((await local(other, 'GET', `/verification/${r.body.reference_id}`)).status).toBe(404);
    other.close();
    const action = await api('PATCH', `/verification/${r.body.reference_id}/state`, { json: { action: 'cancel', security_factor: '123456' } });
    expect(action.status).toBe(400);
    expect(action.body.status.description).toContain('finalize');
  });

  it('405 with Allow for other methods; the undocumented PATCH /verification/{id} is 405 Allow: GET', async () => {
    const r = await create({ recipient: { phone_number: '15555550612' } });
    const patch = await api('PATCH', `/verification/${r.body.reference_id}`, { json: { verification_policy: [] } });
    expect(patch.status).toBe(405);
    expect(patch.headers.get('allow')).toBe('GET');
    const put = await api('PUT', `/verification/${r.body.reference_id}/state`, { json: {} });
    expect(put.headers.get('allow')).toBe('PATCH');
    expect((await api('GET', '/verification')).headers.get('allow')).toBe('POST');
  });
});

describe('callbacks of the final state', () => {
  it('VERIFIED: one signed callback with state, created_on, updated_on, recipient, policy, inner_methods', async () => {
    const r = await create({ recipient: { phone_number: '15555550620' } });
    clock += 5_000;
    await finalize(r.body.reference_id, codeOf('15555550620'));
    await emulator.idle();
    expect(received).toHaveLength(1);
    const payload = JSON.parse(received[0]!.body);
    expect(payload).toMatchObject({ reference_id: r.body.reference_id, state: 'VERIFIED', recipient: { phone_number: '15555550620' }, verification_policy: [{ method: 'sms', fallback_time: 60 }], inner_methods: [{ method: 'sms', state: 'VERIFIED', err_code: 3000 }] });
    expect(payload.updated_on).toBe(new Date(clock).toISOString().replace('Z', '000Z'));
    expect(payload.status).toBeUndefined();
    expect(received[0]!.headers.authorization).toBe(`TSA ${customer.customerId}:${callbackSignature(received[0]!.body, customer.apiKey)}`);
  });

  it('FAILED: the callback comes at the failure time of the clock', async () => {
    const r = await create({ recipient: { phone_number: '15555550621' } });
    clock += 299_000;
    await emulator.idle();
    expect(received).toHaveLength(0);
    clock += 1_000;
    await emulator.idle();
    expect(received.map((x) => JSON.parse(x.body))).toEqual([expect.objectContaining({ reference_id: r.body.reference_id, state: 'FAILED' })]);
  });
});

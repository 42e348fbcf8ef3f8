// Voice Verify (POST /v1/verify/call), its status and check through GET /v1/verify/{id}, and the
// completion of own-code flows (PUT /v1/verify/completion/{id}), on an injected clock.
import { afterAll, describe, expect, it } from 'vitest';
import { createEmulator } from '../src/index.js';
import { local } from './helpers.js';

let clock = Date.now();
const emulator = createEmulator({ now: () => clock, callDelayMs: 20_000, deliveryDelayMs: 5_000 });
afterAll(() => emulator.close());
const call = (form: Record<string, string>, basic = false) => local(emulator, 'POST', '/v1/verify/call', { form, basic });
const get = (path: string) => local(emulator, 'GET', path);

describe('POST /v1/verify/call', () => {
  it('answers 103 "Call in progress" with sub_resource call, then the test number\'s final status on the clock', async () => {
    const started = await call({ phone_number: '15555550300' });
    expect(started.status).toBe(200);
    expect(started.headers.get('content-type')).toBe('application/json');
    expect(started.body).toMatchObject({ sub_resource: 'call', errors: [], status: { code: 103, description: 'Call in progress' }, verify: { code_state: 'UNKNOWN', code_entered: '' }, voice: { caller_id: null } });
    expect(started.body.reference_id).toMatch(/^[0-9A-F]{32}$/);
    expect((await get(`/v1/verify/${started.body.reference_id}`)).body.status.code).toBe(103);
    clock += 20_000;
    const done = await get(`/v1/verify/${started.body.reference_id}`);
    expect(done.body).toMatchObject({ sub_resource: 'call', status: { code: 100, description: 'Call answered' } });
  });

  it.each([
    ['0001', 101, 'Not answered'],
    ['0002', 130, 'Call blocked by TeleSign'],
    ['0004', 104, 'Wrong/invalid phone number'],
    ['0005', 100, 'Call answered'],
    ['0006', 107, 'Line busy'],
  ])('test number ...%s ends the call with %i', async (suffix, code, description) => {
    const started = await call({ phone_number: `1555555${suffix}` });
    clock += 20_000;
    expect((await get(`/v1/verify/${started.body.reference_id}`)).body.status).toMatchObject({ code, description });
  });

  it('speaks tts_message with the code in place of $$CODE$$ (the outbox holds the call), and checks it', async () => {
    const started = await call({ phone_number: '15555550301', verify_code: '4242', tts_message: 'Your Acme code is $$CODE$$. Again: $$CODE$$.' });
    const spoken = emulator.outbox.latest('15555550301')!;
    expect(spoken).toMatchObject({ channel: 'voice', product: 'verify', code: '4242', text: 'Your Acme code is 4242. Again: 4242.' });
    const wrong = await get(`/v1/verify/${started.body.reference_id}?verify_code=1111`);
    expect(wrong.body.verify).toEqual({ code_state: 'INVALID', code_entered: '1111' });
    const right = await get(`/v1/verify/${started.body.reference_id}?verify_code=4242`);
    expect(right.body).toMatchObject({ sub_resource: 'call', verify: { code_state: 'VALID', code_entered: '4242' } });
  });

  it('makes a 7-digit code and speaks the default message in the language; `template` is taken for tts_message', async () => {
    await call({ phone_number: '15555550302', language: 'fr-FR' });
    expect(emulator.outbox.latest('15555550302')!.text).toMatch(/^Votre code est \d{7}$/);
    await call({ phone_number: '15555550303', verify_code: '123', template: 'Code $$CODE$$' });
    expect(emulator.outbox.latest('15555550303')!.text).toBe('Code 123');
  });

  it('call_forward_action: a forwarded line (...0007) is blocked (130) with block, marked with flag', async () => {
    const blocked = await call({ phone_number: '15555550007', call_forward_action: 'block' });
    expect(blocked.body.call_forwarding).toEqual({ action: 'BLOCK', call_forward: 'FORWARDED' });
    const flagged = await call({ phone_number: '15555550007', call_forward_action: 'flag' });
    const plain = await call({ phone_number: '15555550304', call_forward_action: 'flag' });
    expect(plain.body.call_forwarding).toEqual({ action: 'FLAG', call_forward: 'NOT_FORWARDED' });
    clock += 20_000;
    expect((await get(`/v1/verify/${blocked.body.reference_id}`)).body.status.code).toBe(130);
    const flaggedDone = await get(`/v1/verify/${flagged.body.reference_id}`);
    expect(flaggedDone.body.status.code).toBe(100);
    expect(flaggedDone.body.call_forwarding).toEqual({ action: 'FLAG', call_forward: 'FORWARDED' });
  });

  it.each([
    [{ verify_code: '12' }, 'verify_code'],
    [{ verify_code: '12345678' }, 'verify_code'],
    [{ tts_message: 'no placeholder' }, '$$CODE$$'],
    [{ tts_message: `$$CODE$$${'x'.repeat(1600)}` }, 'tts_message'],
    [{ language: 'english' }, 'language'],
    [{ ucid: 'NOPE' }, 'ucid'],
    [{ call_forward_action: 'drop' }, 'call_forward_action'],
    [{ prompt_message: 'Press 1' }, 'prompt_digit'],
    [{ prompt_message: 'Press 1', prompt_digit: '12' }, 'prompt_digit'],
    [{ language: 'en-US', pressx: '1' }, 'language'],
    [{ tts_message: 'x $$CODE$$', pressx: '1' }, 'pressx'],
    [{ redial: 'maybe' }, 'redial'],
    [{ phone_number: 'abc' }, 'phone_number'],
  ])('400 -10001 in errors[] for %o', async (fields, mention) => {
    const r = await call({ phone_number: '15555550100', ...fields } as Record<string, string>);
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([{ code: -10001, description: expect.stringContaining(mention) }]);
    expect(r.body.errors[0].description).toMatch(/^Invalid Request/);
    expect(r.body.status.code).toBe(500);
  });

  it('form and JSON bodies, signed or Basic, are accepted; a wrong key is refused with -30006 in the Verify family', async () => {
    expect((await call({ phone_number: '15555550305' }, true)).status).toBe(200);
    expect((await local(emulator, 'POST', '/v1/verify/call', { json: { phone_number: '15555550306' } })).status).toBe(200);
    const wrong = await local(emulator, 'POST', '/v1/verify/call', { form: { phone_number: '15555550307' }, credentials: { customerId: '00000000-0000-4000-8000-000000000001', apiKey: 'd3Jvbmcta2V5' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body.errors[0].code).toBe(-30006);
    expect(wrong.body.status.code).toBe(501);
    expect(emulator.outbox.latest('15555550307')).toBeUndefined();
  });

  it('GET /v1/verify/call is 405 Allow: POST (not a status request for the reference id "call")', async () => {
    const r = await get('/v1/verify/call');
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('POST');
  });
});

describe('PUT /v1/verify/completion/{reference_id}', () => {
  it('records the completion of an own-code SMS verification: 1900, the code state VALID; repeating it answers the same', async () => {
    const started = await local(emulator, 'POST', '/v1/verify/sms', { form: { phone_number: '15555550310', verify_code: '5555' } });
    const id = started.body.reference_id;
    const done = await local(emulator, 'PUT', `/v1/verify/completion/${id}`, { emptyForm: true });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ reference_id: id, sub_resource: 'sms', errors: [], status: { code: 1900, description: 'Verify completion successfully recorded' } });
    const again = await local(emulator, 'PUT', `/v1/verify/completion/${id.toLowerCase()}`);
    expect(again.body.status).toEqual(done.body.status);
    expect((await get(`/v1/verify/${id}`)).body.verify.code_state).toBe('VALID');
  });

  it('completes a voice verification (sub_resource call), with or without a body, signed or Basic', async () => {
    const started = await call({ phone_number: '15555550311', verify_code: '777' });
    const done = await local(emulator, 'PUT', `/v1/verify/completion/${started.body.reference_id}`, { basic: true });
    expect(done.body).toMatchObject({ sub_resource: 'call', status: { code: 1900 } });
  });

  it('401 -30013 for a reference that is not a verification; 404 -10001 unknown; 400 -10001 not an id; 405 for other methods', async () => {
    const sms = await local(emulator, 'POST', '/v1/messaging', { form: { phone_number: '15555550312', message: 'x', message_type: 'ARN' } });
    const notVerify = await local(emulator, 'PUT', `/v1/verify/completion/${sms.body.reference_id}`, { emptyForm: true });
    expect(notVerify.status).toBe(401);
    expect(notVerify.body.errors).toEqual([{ code: -30013, description: 'Invalid ReferenceID for Verify Completion' }]);
    const unknown = await local(emulator, 'PUT', '/v1/verify/completion/0123456789ABCDEF0123456789ABCDEF', { emptyForm: true });
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors[0].code).toBe(-10001);
    const bad = await local(emulator, 'PUT', '/v1/verify/completion/not-an-id', { emptyForm: true });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].code).toBe(-10001);
    const post = await local(emulator, 'POST', '/v1/verify/completion/0123456789ABCDEF0123456789ABCDEF', { form: {} });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('PUT');
  });
});

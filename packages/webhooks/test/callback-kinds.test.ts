// Every family of callback the emulator sends, verified over its raw bytes and told apart by
// callbackKind: an SMS delivery report and an SMS verification share sub_resource 'sms', and
// a Verify API report has no sub_resource at all.
import { signRequest } from '@x/auth';
import { createEmulator, DEFAULT_CUSTOMER, type Emulator } from '@x/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callbackKind, isCallbackKind, isInboundSms, isVerifyCallback, isVoiceCallback, isVoiceEvent, verifyCallback, type CallbackKind, type CallbackPayload } from '../src/index.js';

const CALLBACK_URL = 'https://app.example/callbacks';
const deliveries: Array<{ body: string; headers: Record<string, string> }> = [];
let emulator: Emulator;

beforeAll(() => {
  emulator = createEmulator({
    deliveryDelayMs: 5,
    customers: [{ ...DEFAULT_CUSTOMER, callbackUrl: CALLBACK_URL }],
    // The callbacks' transport: record the signed bytes as our endpoint would receive them.
    callbacks: {
      fetch: async (_url, init) => {
        deliveries.push({ body: String(init?.body), headers: init?.headers as Record<string, string> });
        return new Response('{}', { status: 200 });
      },
    },
  });
});
afterAll(() => emulator.close());

/** A signed request to the in-process emulator. */
async function call(method: string, path: string, body?: { form?: Record<string, string>; json?: unknown }, host = 'https://rest-api.telesign.com') {
  const url = `${host}${path}`;
  const text = body?.form ? new URLSearchParams(body.form).toString() : body?.json !== undefined ? JSON.stringify(body.json) : undefined;
  const contentType = body?.form ? 'application/x-www-form-urlencoded' : body?.json !== undefined ? 'application/json' : undefined;
  const { headers } = signRequest({ method, url, ...(contentType ? { contentType } : {}), ...(text !== undefined ? { body: text } : {}) }, DEFAULT_CUSTOMER);
  const response = await emulator.fetch(url, { method, headers, ...(text !== undefined ? { body: text } : {}) });
  expect(response.status, `${method} ${path}: ${await response.clone().text()}`).toBeLessThan(300);
  return (await response.json()) as { reference_id: string };
}

/** The verified payloads delivered since `from`. */
async function delivered(from: number): Promise<CallbackPayload[]> {
  await emulator.idle();
  const out: CallbackPayload[] = [];
  for (const { body, headers } of deliveries.slice(from)) {
    const result = await verifyCallback({ body, headers }, DEFAULT_CUSTOMER);
    if (!result.ok) throw new Error(`a callback failed verification: ${result.reason}`);
    out.push(result.payload);
  }
  return out;
}

async function kindsOf(action: () => Promise<unknown>): Promise<Array<CallbackKind | 'unknown'>> {
  const from = deliveries.length;
  await action();
  return (await delivered(from)).map(callbackKind);
}

describe('callbackKind tells every family of callback apart', () => {
  it('an SMS delivery report is sms_status', async () => {
    expect(await kindsOf(() => call('POST', '/v1/messaging', { form: { phone_number: '15555550100', message: 'hi', message_type: 'ARN' } }))).toEqual(['sms_status']);
  });

  it("an SMS verification's callback (also sub_resource 'sms') is verify_sms", async () => {
    expect(await kindsOf(() => call('POST', '/v1/verify/sms', { form: { phone_number: '15555550101' } }))).toEqual(['verify_sms']);
  });

  it("a voice verification's callback is verify_call", async () => {
    expect(await kindsOf(() => call('POST', '/v1/verify/call', { form: { phone_number: '15555550102' } }))).toEqual(['verify_call']);
  });

  it('a voice call is voice', async () => {
    expect(await kindsOf(() => call('POST', '/v1/voice', { form: { phone_number: '15555550103', message: 'hi', message_type: 'ARN' } }))).toEqual(['voice']);
  });

  it('each recipient of a bulk SMS is bulk_sms', async () => {
    expect(await kindsOf(() => call('POST', '/v1/verify/bulk_sms', { form: { recipients: '15555550104:a,15555550105:b', template: 'hi' } }))).toEqual(['bulk_sms', 'bulk_sms']);
  });

  it('an inbound SMS is inbound_sms', async () => {
    expect(await kindsOf(async () => emulator.inbound({ from: '15555550106', to: '15555559999', text: 'STOP' }))).toEqual(['inbound_sms']);
  });

  it('a Verify API report (a state, no sub_resource) is verify_api', async () => {
    const host = 'https://verify.telesign.com';
    const kinds = await kindsOf(async () => {
      const { reference_id: id } = await call('POST', '/verification', { json: { recipient: { phone_number: '15555550107' }, verification_policy: [{ method: 'sms' }] } }, host);
      // Finalized with the code the "phone" got: the report of the final state is sent.
      const code = emulator.outbox.latest('15555550107')?.code;
      expect(code).toBeDefined();
      await call('PATCH', `/verification/${id}/state`, { json: { action: 'finalize', security_factor: code } }, host);
    });
    expect(kinds).toEqual(['verify_api']);
  });

  it('a v2 Voice event (reference D-VOICE2) is voice_event; anything else is unknown', () => {
    const event = { event: 'incoming_call', reference_id: '1b9a0f3e-9a0e-4b7e-8b0e-2f8d0c2b7a11', data: { to: '15555550108', from: '15555550109' } } as CallbackPayload;
    expect(callbackKind(event)).toBe('voice_event');
    expect(callbackKind({ reference_id: 'x', sub_resource: 'rcs' } as unknown as CallbackPayload)).toBe('unknown');
    expect(callbackKind({} as CallbackPayload)).toBe('unknown');
  });

  it('the guards agree with callbackKind', async () => {
    const from = deliveries.length;
    await call('POST', '/v1/messaging', { form: { phone_number: '15555550110', message: 'hi', message_type: 'ARN' } });
    await call('POST', '/v1/verify/sms', { form: { phone_number: '15555550111' } });
    await call('POST', '/v1/verify/call', { form: { phone_number: '15555550112' } });
    await call('POST', '/v1/voice', { form: { phone_number: '15555550113', message: 'hi', message_type: 'ARN' } });
    emulator.inbound({ from: '15555550114', to: '15555559999', text: 'HELP' });
    for (const payload of await delivered(from)) {
      const kind = callbackKind(payload);
      expect(isCallbackKind(payload, kind as CallbackKind)).toBe(true);
      expect(isVerifyCallback(payload)).toBe(kind === 'verify_sms' || kind === 'verify_call');
      expect(isVoiceCallback(payload)).toBe(kind === 'voice');
      expect(isInboundSms(payload)).toBe(kind === 'inbound_sms');
      expect(isVoiceEvent(payload)).toBe(false);
      for (const other of ['sms_status', 'verify_sms', 'verify_call', 'voice', 'voice_event', 'bulk_sms', 'inbound_sms', 'verify_api'] as const) {
        if (other !== kind) expect(isCallbackKind(payload, other)).toBe(false);
      }
    }
  });
});

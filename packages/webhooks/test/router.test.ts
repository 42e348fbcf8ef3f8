// The typed callback router: events from the payload kind and its status family, a fallback for
// the rest, and with a state store, repeats and stale callbacks never reach a handler.
import { describe, expect, it } from 'vitest';
import callbackVector from '../../auth/vectors/callback.json' with { type: 'json' };
import { XError } from '@x/auth';
import { handleCallback, WebhookError, type CallbackPayload } from '../src/index.js';
import { callbackEvent, createMemoryStateStore, createRouter } from '../src/router-entry.js';
import { createSignedCallback } from '../src/testing.js';

const credentials = { customerId: callbackVector.customerId, apiKey: callbackVector.apiKey };
const status = (code: number, updated_on = '2026-01-01T00:00:00Z') => ({ code, description: '', updated_on });
const sms = (code: number, updated_on?: string, reference_id = 'A'.repeat(32)): CallbackPayload => ({ reference_id, sub_resource: 'sms', errors: [], status: status(code, updated_on) });

describe('callbackEvent', () => {
  it.each([
    [sms(200), 'sms.delivered'],
    [sms(201), 'sms.delivered'],
    [sms(203), 'sms.pending'],
    [sms(290), 'sms.pending'],
    [sms(210), 'sms.failed'],
    [sms(507), 'sms.failed'],
    [{ reference_id: 'x', sub_resource: 'voice', errors: [], status: status(100) }, 'call.answered'],
    [{ reference_id: 'x', sub_resource: 'voice', errors: [], status: status(103) }, 'call.pending'],
    [{ reference_id: 'x', sub_resource: 'voice', errors: [], status: status(107) }, 'call.failed'],
    [{ reference_id: 'x', sub_resource: 'sms', errors: [], status: status(200), verify: { code_state: 'VALID', code_entered: null } }, 'verify_sms.delivered'],
    [{ reference_id: 'x', sub_resource: 'call', errors: [], status: status(103), verify: { code_state: 'UNKNOWN', code_entered: null } }, 'verify_call.pending'],
    [{ reference_id: 'x', sub_resource: 'bulk_sms', session_id: null, errors: [], status: status(211) }, 'bulk_sms.failed'],
    [{ reference_id: 'x', state: 'VERIFIED' }, 'verify.completed'],
    [{ reference_id: 'x', state: 'ONGOING' }, 'verify.pending'],
    [{ reference_id: 'x', sub_resource: 'mo_sms', errors: [], status: status(1500), user_response: { phone_number: '1', sender_id: '2', mo_message: 'hi' } }, 'inbound.sms'],
    [{ event: 'incoming_call', reference_id: 'x', data: {} }, 'voice.event'],
    [{ reference_id: 'x', sub_resource: 'fax', errors: [], status: status(1) }, undefined],
  ])('%j is %s', (payload, event) => {
    expect(callbackEvent(payload as CallbackPayload)).toBe(event);
  });
});

describe('createRouter', () => {
  it('runs the handler of the event, and the fallback for the rest', async () => {
    const seen: string[] = [];
    const router = createRouter<string>()
      .on('sms.delivered', (p) => (seen.push(`delivered ${p.status.code}`), 'd'))
      .on('inbound.sms', (p) => (seen.push(`mo ${p.user_response.mo_message}`), 'mo'))
      .otherwise((p) => (seen.push(`other ${p.reference_id}`), 'other'));
    expect(await router.handle(sms(200))).toEqual({ routed: true, event: 'sms.delivered', value: 'd' });
    expect(await router.handle(sms(290))).toEqual({ routed: true, event: 'sms.pending', value: 'other' });
    expect(await router.handle({ reference_id: 'F', sub_resource: 'fax', errors: [], status: status(1) } as unknown as CallbackPayload)).toMatchObject({ routed: true, event: undefined, value: 'other' });
    expect(seen).toEqual(['delivered 200', `other ${'A'.repeat(32)}`, 'other F']);
  });

  it('with a state store: a late intermediate status and a repeat never reach a handler', async () => {
    const seen: number[] = [];
    const router = createRouter({ store: createMemoryStateStore() }).otherwise((p) => void seen.push(p.status!.code));
    expect(await router.handle(sms(200, '2026-01-01T00:00:05Z'))).toMatchObject({ routed: true });
    expect(await router.handle(sms(290, '2026-01-01T00:00:01Z'))).toMatchObject({ routed: false, reason: 'stale', state: { code: 200 } });
    expect(await router.handle(sms(200, 'Thu, 01 Jan 2026 00:00:05 GMT'))).toMatchObject({ routed: false, reason: 'duplicate' });
    expect(seen).toEqual([200]);
  });

  it('a handler that throws leaves the state as it was: the retry runs it', async () => {
    let fail = true;
    const router = createRouter({ store: createMemoryStateStore() }).on('sms.delivered', () => {
      if (fail) throw new Error('database down');
      return 'stored';
    });
    fail = true;
    await expect(router.handle(sms(200))).rejects.toThrow('database down');
    fail = false;
    expect(await router.handle(sms(200))).toMatchObject({ routed: true, value: 'stored' });
  });

  it('the memory store keeps at most maxEntries messages', async () => {
    const store = createMemoryStateStore({ maxEntries: 3 });
    const router = createRouter({ store }).otherwise(() => undefined);
    for (let i = 0; i < 10; i++) await router.handle(sms(200, undefined, `R${i}`));
    expect(store.size).toBe(3);
  });

  it('is the handler of handleCallback', async () => {
    const router = createRouter<string>().on('sms.failed', (p) => `failed ${p.status.code}`);
    const handled = await handleCallback(createSignedCallback(sms(507), credentials), credentials, router.handle);
    expect(handled).toMatchObject({ ok: true, value: { routed: true, event: 'sms.failed', value: 'failed 507' } });
  });
});

describe('registration refuses what could never run', () => {
  const refused = (register: () => unknown): WebhookError => {
    try {
      register();
    } catch (error) {
      expect(error).toBeInstanceOf(WebhookError);
      expect(error).toBeInstanceOf(XError);
      return error as WebhookError;
    }
    return expect.fail('expected the registration to throw');
  };

  it.each(['sms.delivred', 'SMS.delivered', 'sms.delivered ', 'sms', 'delivered', '', 'toString', '__proto__', 'constructor'])('an unknown event name (%j) throws unknown_event at registration, listing the known ones', (name) => {
    const error = refused(() => createRouter().on(name as 'sms.delivered', () => undefined));
    expect(error.code).toBe('unknown_event');
    expect(error.message).toContain(JSON.stringify(name));
    for (const known of ['sms.delivered', 'sms.failed', 'bulk_sms.pending', 'verify_sms.delivered', 'call.answered', 'verify_call.failed', 'verify.completed', 'verify.pending', 'inbound.sms', 'voice.event']) expect(error.message).toContain(known);
  });

  it('a name that is not a string, or a handler that is not a function, throws at registration', () => {
    expect(refused(() => createRouter().on(42 as unknown as 'sms.delivered', () => undefined)).code).toBe('unknown_event');
    expect(refused(() => createRouter().on('sms.delivered', undefined as never)).code).toBe('invalid_handler');
    expect(refused(() => createRouter().otherwise('log' as never)).code).toBe('invalid_handler');
  });

  it('a second handler for the same event, or a second fallback, throws (it would silently replace the first)', () => {
    const router = createRouter().on('sms.delivered', () => 'a').otherwise(() => 'b');
    expect(refused(() => router.on('sms.delivered', () => 'c')).code).toBe('invalid_handler');
    expect(refused(() => router.otherwise(() => 'd')).code).toBe('invalid_handler');
  });

  it('every event callbackEvent can produce is accepted by on()', () => {
    const router = createRouter();
    for (const event of ['sms.delivered', 'sms.pending', 'sms.failed', 'bulk_sms.delivered', 'bulk_sms.pending', 'bulk_sms.failed', 'verify_sms.delivered', 'verify_sms.pending', 'verify_sms.failed', 'call.answered', 'call.pending', 'call.failed', 'verify_call.answered', 'verify_call.pending', 'verify_call.failed', 'verify.completed', 'verify.pending', 'inbound.sms', 'voice.event'] as const) {
      router.on(event, () => undefined);
    }
  });
});

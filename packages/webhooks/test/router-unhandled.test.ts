// A callback no handler takes (no handler for its event, no fallback) is never recorded as handled:
// the router reports it (`onUnhandled`, default a warning) and answers `{ routed: false, reason:
// 'unhandled' }` without writing the message's state, so a handler added later still gets the same
// callback when it comes again. A listener that throws makes the delivery fail, and the service
// retries. Against the emulator over HTTP on 127.0.0.1, a receiver running handleCallback with the
// router and a real state store.
import { createMemoryReplayStore, signRequest } from '@x/auth';
import { DEFAULT_CUSTOMER } from '@x/emulator';
import { startEmulator, type RunningEmulator } from '@x/emulator/node';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { handleCallback, type CallbackOptions } from '../src/index.js';
import { createMemoryStateStore, createRouter, type CallbackRouter, type RouteOutcome } from '../src/router-entry.js';
import type { CallbackPayload } from '../src/types.js';

/** What the receiver runs: set per test. */
let route: CallbackRouter<string>;
let options: CallbackOptions = { ...DEFAULT_CUSTOMER };
const outcomes: RouteOutcome<string | undefined>[] = [];
let receiver: Server;
let server: RunningEmulator;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      try {
        const handled = await handleCallback({ body: new Uint8Array(Buffer.concat(chunks)), headers: req.headers as Record<string, string> }, options, route.handle);
        if (handled.ok) outcomes.push(handled.value);
        res.writeHead(handled.ok ? 204 : handled.answer.status).end();
      } catch {
        res.writeHead(500).end(); // what an adapter answers when the handler throws: the service retries
      }
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/callbacks`;
  server = await startEmulator({ customers: [{ ...DEFAULT_CUSTOMER, callbackUrl }], deliveryDelayMs: 5, callbacks: { retryDelaysMs: [10, 20] } });
});
afterAll(async () => {
  await server.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});
beforeEach(() => {
  outcomes.length = 0;
  options = { ...DEFAULT_CUSTOMER };
});

async function sendSms(phone: string): Promise<string> {
  const url = `${server.url}/v1/messaging`;
  const body = new URLSearchParams({ phone_number: phone, message: 'Your parcel ships today', message_type: 'ARN' }).toString();
  const { headers } = signRequest({ method: 'POST', url, body, contentType: 'application/x-www-form-urlencoded' }, DEFAULT_CUSTOMER);
  const answer = (await (await fetch(url, { method: 'POST', headers, body })).json()) as { reference_id: string };
  await server.emulator.idle();
  return answer.reference_id;
}

describe('a callback no handler takes', () => {
  it('is reported, answered routed: false / unhandled, and leaves the state unwritten: the handler added later gets the same callback', async () => {
    const store = createMemoryStateStore();
    const unhandled: unknown[] = [];
    const delivered: string[] = [];
    route = createRouter<string>({ store, onUnhandled: (u) => void unhandled.push(u) }).on('sms.failed', () => 'failed');
    const ref = await sendSms('15555550180');
    expect(unhandled).toEqual([{ event: 'sms.delivered', kind: 'sms_status', referenceId: ref }]);
    expect(outcomes).toEqual([{ routed: false, reason: 'unhandled', event: 'sms.delivered' }]);
    expect(await store.get(`state:${ref}`)).toBeNull();

    // The fix deployed: the same signed callback again reaches the new handler (it is not a "duplicate").
    route.on('sms.delivered', (sms) => (delivered.push(sms.reference_id), 'delivered'));
    const attempt = server.emulator.callbacks.attempts.find((a) => a.referenceId === ref && a.ok)!;
    outcomes.length = 0;
    await server.emulator.callbacks.resend(attempt.id);
    expect(delivered).toEqual([ref]);
    expect(outcomes).toEqual([{ routed: true, event: 'sms.delivered', value: 'delivered' }]);
    expect(JSON.parse((await store.get(`state:${ref}`))!)).toMatchObject({ code: 200, final: true });
  });

  it('a kind this version does not know, without a fallback, is reported too (event undefined, kind unknown)', async () => {
    const unhandled: unknown[] = [];
    const router = createRouter({ store: createMemoryStateStore(), onUnhandled: (u) => void unhandled.push(u) }).on('sms.delivered', () => undefined);
    const fax = { reference_id: 'F'.repeat(32), sub_resource: 'fax', errors: [], status: { code: 1, description: '', updated_on: '2026-01-01T00:00:00Z' } } as unknown as CallbackPayload;
    expect(await router.handle(fax)).toEqual({ routed: false, reason: 'unhandled', event: undefined });
    expect(unhandled).toEqual([{ event: undefined, kind: 'unknown', referenceId: 'F'.repeat(32) }]);
  });

  it('by default it is a console warning that names the event and says how to take it (no payload, no phone number)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const router = createRouter().on('sms.failed', () => undefined);
      const mo = { reference_id: 'B'.repeat(32), sub_resource: 'mo_sms', errors: [], status: { code: 1500, description: '', updated_on: '2026-01-01T00:00:00Z' }, user_response: { phone_number: '15555550181', sender_id: '1', mo_message: 'STOP' } } as CallbackPayload;
      expect(await router.handle(mo)).toMatchObject({ routed: false, reason: 'unhandled', event: 'inbound.sms' });
      expect(warn).toHaveBeenCalledTimes(1);
      const line = warn.mock.calls[0]!.map(String).join(' ');
      expect(line).toContain('inbound.sms');
      expect(line).toContain("on('inbound.sms'");
      expect(line).toContain('otherwise(');
      expect(line).not.toContain('15555550181');
      expect(line).not.toContain('STOP');
    } finally {
      warn.mockRestore();
    }
  });

  it('an onUnhandled that throws fails the delivery: the receiver answers 5xx, the delivery is released and the service retries it', async () => {
    const store = createMemoryStateStore();
    options = { ...DEFAULT_CUSTOMER, replayStore: createMemoryReplayStore() };
    route = createRouter<string>({
      store,
      onUnhandled: ({ event }) => {
        throw new Error(`no handler for ${event}`);
      },
    });
    const ref = await sendSms('15555550182');
    const attempts = server.emulator.callbacks.attempts.filter((a) => a.referenceId === ref);
    expect(attempts.map((a) => a.status)).toEqual([500, 500, 500]); // the first attempt and both retries
    expect(await store.get(`state:${ref}`)).toBeNull();
    expect(outcomes).toEqual([]);
  });

  it('a fallback takes what has no handler: routed, and the state is written', async () => {
    const store = createMemoryStateStore();
    const onUnhandled = vi.fn();
    route = createRouter<string>({ store, onUnhandled }).on('sms.failed', () => 'failed').otherwise(() => 'fallback');
    const ref = await sendSms('15555550183');
    expect(onUnhandled).not.toHaveBeenCalled();
    expect(outcomes).toContainEqual({ routed: true, event: 'sms.delivered', value: 'fallback' });
    expect(JSON.parse((await store.get(`state:${ref}`))!)).toMatchObject({ code: 200, final: true });
  });
});

import { callbackSignature } from '@x/auth';
import { timingSafeEqual } from '@x/auth/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator } from '../src/index.js';
import { startEmulator, type RunningEmulator } from '../src/node.js';
import { call, local, startCallbackRecorder, customer, type Received } from './helpers.js';

let receiver: Awaited<ReturnType<typeof startCallbackRecorder>>;
let receiverUrl: string;
const received: Received[] = [];
let failFirst = 0;

beforeAll(async () => {
  receiver = await startCallbackRecorder({ received, status: () => (failFirst > 0 ? (failFirst--, 503) : 200), path: '/callbacks' });
  receiverUrl = receiver.url;
});
afterAll(() => receiver.close());

describe('signed callbacks to a real local server', () => {
  let server: RunningEmulator;
  beforeAll(async () => {
    server = await startEmulator({ customers: [{ ...customer, callbackUrl: receiverUrl }], deliveryDelayMs: 20, callbacks: { retryDelaysMs: [30, 60] } });
  });
  afterAll(() => server.close());

  it('POSTs the final status with both signature headers, which verify over the raw body', async () => {
    received.length = 0;
    const sent = await call(server.url, 'POST', '/v1/verify/sms', { form: { phone_number: '15555550120', verify_code: '123456' } });
    await server.emulator.idle();
    expect(received).toHaveLength(1);
    const [callback] = received;
    const payload = JSON.parse(callback!.body);
    expect(payload).toMatchObject({ reference_id: sent.body.reference_id, status: { code: 200 }, verify: { code_state: 'UNKNOWN', code_entered: null }, sub_resource: 'sms' });
    const signature = callbackSignature(callback!.body, customer.apiKey);
    expect(timingSafeEqual(String(callback!.headers['x-ts-authorization']), signature)).toBe(true);
    expect(callback!.headers.authorization).toBe(`TSA ${customer.customerId}:${signature}`);
    expect(callback!.headers['content-type']).toBe('application/json');
  });

  it('retries a failing receiver (3 attempts by default count) and records every attempt', async () => {
    received.length = 0;
    failFirst = 2;
    const before = server.emulator.callbacks.attempts.length;
    await call(server.url, 'POST', '/v1/messaging', { form: { phone_number: '15555550121', message: 'x', message_type: 'ARN' } });
    await server.emulator.idle();
    const attempts = server.emulator.callbacks.attempts.slice(before);
    expect(attempts.map((a) => [a.attempt, a.status, a.ok])).toEqual([[1, 503, false], [2, 503, false], [3, 200, true]]);
    expect(new Set(received.map((r) => r.body)).size).toBe(1);
  });

  it('gives up after the last attempt', async () => {
    failFirst = 5;
    const before = server.emulator.callbacks.attempts.length;
    await call(server.url, 'POST', '/v1/voice', { form: { phone_number: '15555550122', message: 'x', message_type: 'ARN' } });
    await server.emulator.idle();
    expect(server.emulator.callbacks.attempts.slice(before).map((a) => a.ok)).toEqual([false, false, false]);
    failFirst = 0;
  });
});

describe('per-request callback_url', () => {
  it('overrides the customer configuration', async () => {
    const server = await startEmulator({ deliveryDelayMs: 10 });
    received.length = 0;
    await call(server.url, 'POST', '/v1/messaging', { form: { phone_number: '15555550123', message: 'x', message_type: 'ARN', callback_url: receiverUrl } });
    await server.emulator.idle();
    expect(received).toHaveLength(1);
    expect(JSON.parse(received[0]!.body).status.code).toBe(200);
    await server.close();
  });
});

describe('a callback retry and reset()', () => {
  it('goes on waiting for its time on the clock: reset forgets deliveries, not retries', async () => {
    const at = Date.now();
    const sent: string[] = [];
    const fetch = (async (url: string | URL | Request) => {
      sent.push(String(url));
      return new Response(null, { status: sent.length === 1 ? 500 : 204 });
    }) as typeof globalThis.fetch;
    const emulator = createEmulator({ now: () => at, deliveryDelayMs: 1, customers: [{ ...customer, callbackUrl: 'http://receiver.test/cb' }], callbacks: { fetch, retryDelaysMs: [60_000] } });
    try {
      expect((await local(emulator, 'POST', '/v1/messaging', { form: { phone_number: '15555550100', message: 'hi', message_type: 'ARN' } })).status).toBe(200);
      await emulator.clock.advance(1);
      expect(sent).toHaveLength(1);
      emulator.reset();
      await emulator.clock.advance(59_999);
      expect(sent).toHaveLength(1);
      await emulator.clock.advance(2);
      expect(sent).toHaveLength(2);
      await emulator.idle();
    } finally {
      emulator.close();
    }
  });
});

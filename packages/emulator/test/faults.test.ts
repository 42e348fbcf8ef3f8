import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../src/node.js';
import { call } from './helpers.js';

let server: RunningEmulator;
beforeAll(async () => {
  server = await startEmulator();
});
afterAll(() => server.close());
const sms = { phone_number: '15555550130', message: 'x', message_type: 'ARN' };

describe('fault injection', () => {
  it('429 with Retry-After, then normal service', async () => {
    server.emulator.faults.add({ type: 'status', status: 429, retryAfterSeconds: 2 });
    const limited = await call(server.url, 'POST', '/v1/messaging', { form: sms });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('2');
    expect(limited.body.status.code).toBe(10019);
    expect((await call(server.url, 'POST', '/v1/messaging', { form: sms })).status).toBe(200);
  });

  it('503 on the verify family uses -90001', async () => {
    server.emulator.faults.add({ type: 'status', status: 503, path: '/v1/verify' });
    const r = await call(server.url, 'POST', '/v1/verify/sms', { form: { phone_number: '15555550130' } });
    expect(r.status).toBe(503);
    expect(r.body.errors[0].code).toBe(-90001);
  });

  it('latency holds the answer long enough for a client timeout to fire (set through the HTTP control route)', async () => {
    const set = await fetch(`${server.url}/_emulator/faults`, { method: 'POST', body: JSON.stringify({ type: 'latency', ms: 1_000 }) });
    expect(set.status).toBe(201);
    const { signRequest } = await import('@x/auth');
    const { customer } = await import('./helpers.js');
    const url = `${server.url}/v1/voice`;
    const request = fetch(url, { headers: signRequest({ method: 'GET', url }, customer).headers, signal: AbortSignal.timeout(50) });
    await expect(request).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(server.emulator.faults.list()).toEqual([]);
  });

  it('drop: the SMS is sent, the connection closes without an answer', async () => {
    server.emulator.outbox.clear();
    server.emulator.faults.add({ type: 'drop', method: 'POST' });
    await expect(call(server.url, 'POST', '/v1/messaging', { form: sms })).rejects.toThrow();
    expect(server.emulator.outbox.list({ phoneNumber: sms.phone_number })).toHaveLength(1);
  });

  it('drop in-process: the fetch handler rejects like a network error', async () => {
    const { createEmulator } = await import('../src/index.js');
    const emulator = createEmulator();
    emulator.faults.add({ type: 'drop' });
    const { signRequest } = await import('@x/auth');
    const { customer } = await import('./helpers.js');
    const url = 'http://emulator.test/v1/voice';
    await expect(emulator.fetch(url, { headers: signRequest({ method: 'GET', url }, customer).headers })).rejects.toThrow(TypeError);
    emulator.close();
  });
});

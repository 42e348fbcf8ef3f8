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

describe('more faults (item 4)', () => {
  const verifySms = { phone_number: '15555550131' };

  it('reset: the connection is reset before the request is read; nothing is processed (the branch a client may retry)', async () => {
    server.emulator.reset();
    const set = await fetch(`${server.url}/_emulator/faults`, { method: 'POST', body: JSON.stringify({ type: 'reset', method: 'POST', path: '/v1/messaging' }) });
    expect(set.status).toBe(201);
    const error = await call(server.url, 'POST', '/v1/messaging', { form: sms }).catch((e: unknown) => e as Error & { cause?: { code?: string } });
    expect(error).toBeInstanceOf(TypeError);
    expect(String((error as { cause?: { code?: string } }).cause?.code)).toMatch(/ECONNRESET|UND_ERR_SOCKET/);
    expect(server.emulator.outbox.list()).toEqual([]);
    expect(server.emulator.transactions.size).toBe(0);
    expect(server.emulator.journal.list({ path: '/v1' })).toMatchObject([{ path: '/v1/messaging', verdict: 'fault:reset', fault: 'reset' }]);
    expect((await call(server.url, 'POST', '/v1/messaging', { form: sms })).status).toBe(200);
  });

  it('reset in-process: fetch rejects with a TypeError that says it was not processed', async () => {
    const { createEmulator } = await import('../src/index.js');
    const { local } = await import('./helpers.js');
    const emulator = createEmulator();
    emulator.faults.add({ type: 'reset' });
    await expect(local(emulator, 'POST', '/v1/messaging', { form: sms })).rejects.toThrow(/reset.*not processed/);
    expect(emulator.outbox.list()).toEqual([]);
    emulator.close();
  });

  it('html: a proxy\'s HTML error page (not JSON), with Retry-After; not processed', async () => {
    server.emulator.reset();
    server.emulator.faults.add({ type: 'html', retryAfterSeconds: 3 });
    const r = await call(server.url, 'POST', '/v1/messaging', { form: sms }).catch((e: unknown) => e);
    expect(r).toBeInstanceOf(SyntaxError); // the helper parses JSON: a client meets HTML here
    server.emulator.faults.add({ type: 'html', status: 504 });
    const url = `${server.url}/v1/voice`;
    const { signRequest } = await import('@x/auth');
    const { customer } = await import('./helpers.js');
    const response = await fetch(url, { headers: signRequest({ method: 'GET', url }, customer).headers });
    expect(response.status).toBe(504);
    expect(response.headers.get('content-type')).toBe('text/html');
    expect(await response.text()).toMatch(/<title>504 Gateway Time-out<\/title>/);
    expect(server.emulator.outbox.list()).toEqual([]);
    const entries = server.emulator.journal.list();
    expect(entries.map((e) => [e.verdict, e.status, e.serviceCode])).toEqual([['fault:html', 502, undefined], ['fault:html', 504, undefined]]);
  });

  it('error: an error body of the product\'s family with the given service code and status', async () => {
    server.emulator.reset();
    server.emulator.faults.add({ type: 'error', status: 429, code: 10019, retryAfterSeconds: 1, path: '/v1/messaging' });
    const positive = await call(server.url, 'POST', '/v1/messaging', { form: sms });
    expect(positive.status).toBe(429);
    expect(positive.headers.get('retry-after')).toBe('1');
    expect(positive.body.status).toMatchObject({ code: 10019, description: 'Rate Limit Exceeded' });
    server.emulator.faults.add({ type: 'error', status: 500, code: -90001, path: '/v1/verify' });
    const negative = await call(server.url, 'POST', '/v1/verify/sms', { form: verifySms });
    expect(negative.status).toBe(500);
    expect(negative.body.errors).toEqual([{ code: -90001, description: 'System Unavailable, please try again later' }]);
    server.emulator.faults.add({ type: 'error', status: 402, code: 10033, description: 'Insufficient balance' });
    const unknown = await call(server.url, 'POST', '/v1/messaging', { form: sms });
    expect(unknown.status).toBe(402);
    expect(unknown.body.status).toMatchObject({ code: 10033, description: 'Insufficient balance' });
    expect(server.emulator.outbox.list()).toEqual([]);
    expect(server.emulator.journal.list().map((e) => [e.verdict, e.serviceCode])).toEqual([['fault:error', 10019], ['fault:error', -90001], ['fault:error', 10033]]);
  });

  it('probability: a rule applies to a matching request by chance; a request it skips does not count', async () => {
    const { createEmulator } = await import('../src/index.js');
    const { local } = await import('./helpers.js');
    const draws = [0.9, 0.1, 0.6, 0.3, 0.05];
    const emulator = createEmulator({ random: () => draws.shift() ?? 0.99 });
    emulator.faults.add({ type: 'status', status: 503, probability: 0.5, times: 2 });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await local(emulator, 'GET', '/v1/voice')).status);
    // Draws 0.9 (skip), 0.1 (apply), 0.6 (skip), 0.3 (apply: times used up), then no rule.
    expect(statuses).toEqual([200, 503, 200, 503, 200]);
    expect(emulator.faults.list()).toEqual([]);
    emulator.close();
  });

  it.each([
    [{ type: 'status', status: 503, probability: 0 }, 'probability'],
    [{ type: 'status', status: 503, probability: 1.5 }, 'probability'],
    [{ type: 'status', status: 503, probability: '0.5' }, 'probability'],
    [{ type: 'error', status: 500 }, 'code'],
    [{ type: 'error', status: 500, code: 0 }, 'code'],
    [{ type: 'error', status: 500, code: 1.5 }, 'code'],
    [{ type: 'error', status: 399, code: 10019 }, 'status'],
    [{ type: 'error', status: 600, code: 10019 }, 'status'],
    [{ type: 'error', status: 500, code: 10019, description: 'x'.repeat(201) }, 'description'],
    [{ type: 'error', status: 500, code: 10019, description: 'line\nbreak' }, 'description'],
    [{ type: 'html', status: 501 }, 'status'],
    [{ type: 'html', ms: 10 }, 'ms'],
    [{ type: 'reset', status: 503 }, 'status'],
    [{ type: 'teapot' }, 'type'],
  ])('a bad rule (%#: %o) is refused naming %s, in-process and over HTTP; nothing is added', async (rule, field) => {
    const { FaultRuleError } = await import('../src/index.js');
    server.emulator.faults.clear();
    expect(() => server.emulator.faults.add(rule as never)).toThrow(FaultRuleError);
    const response = await fetch(`${server.url}/_emulator/faults`, { method: 'POST', body: JSON.stringify(rule) });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'invalid_fault', field });
    expect(server.emulator.faults.list()).toEqual([]);
  });

  it('DELETE /_emulator/faults/{index} removes one rule; an index with no rule is a 404', async () => {
    server.emulator.faults.clear();
    server.emulator.faults.add({ type: 'status', status: 500, path: '/a' });
    server.emulator.faults.add({ type: 'status', status: 502, path: '/b' });
    const removed = await fetch(`${server.url}/_emulator/faults/0`, { method: 'DELETE' });
    expect(removed.status).toBe(200);
    expect(await removed.json()).toEqual({ faults: [{ type: 'status', status: 502, path: '/b', times: 1 }] });
    for (const index of ['5', 'x', '-1']) {
      const missing = await fetch(`${server.url}/_emulator/faults/${index}`, { method: 'DELETE' });
      expect(missing.status).toBe(404);
      expect(await missing.json()).toMatchObject({ code: 'unknown_fault', field: 'index' });
    }
    server.emulator.faults.clear();
  });
});

import { DEFAULT_CUSTOMER } from '@x/emulator';
import { startEmulator, type RunningEmulator } from '@x/emulator/node';
import { getEventListeners } from 'node:events';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { freePort } from '../../../testing/support.js';
import { AbortedError, AuthenticationError, createClient, NetworkError, RateLimitError, TimeoutError, type ClientOptions } from '../src/index.js';

let server: RunningEmulator;
beforeAll(async () => {
  server = await startEmulator({ deliveryDelayMs: 10 });
});
afterAll(() => server.close());
beforeEach(() => server.emulator.faults.clear());

/** The default transport (node:http on Node) and the portable path (the global fetch): the suites below run on both. */
const TRANSPORTS: Array<[string, typeof fetch | undefined]> = [
  ['default transport', undefined],
  ['global fetch', globalThis.fetch],
];
let transport: typeof fetch | undefined;
const onTransport = (fetch: typeof globalThis.fetch | undefined) => {
  beforeEach(() => void (transport = fetch));
  afterEach(() => void (transport = undefined));
};

const fast = { retries: 2, minDelayMs: 1, maxDelayMs: 20 };
function client(extra: Partial<ClientOptions> = {}) {
  const attempts: number[] = [];
  const c = createClient({ ...DEFAULT_CUSTOMER, baseUrl: server.url, fetch: transport, retry: fast, hooks: { onRequest: (e) => attempts.push(e.attempt) }, ...extra });
  return { c, attempts };
}
const sms = { phoneNumber: '15555550300', message: 'once', messageType: 'ARN' as const };
const activeTimers = () => (process as unknown as { getActiveResourcesInfo(): string[] }).getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

describe.each(TRANSPORTS)('timeouts and cancellation, %s', (_name, fetch) => {
  onTransport(fetch);
  it('a timeout aborts the request and leaves no timer behind', async () => {
    server.emulator.faults.add({ type: 'latency', ms: 1_500 });
    const { c } = client({ retry: false, timeoutMs: 100 });
    const before = activeTimers();
    await expect(c.voice.status('0123456789ABCDEF0123456789ABCDEF')).rejects.toBeInstanceOf(TimeoutError);
    expect(activeTimers()).toBeLessThanOrEqual(before);
  });

  it('a finished request leaves no timer behind', async () => {
    const { c } = client({ timeoutMs: 60_000 });
    const before = activeTimers();
    await c.messaging.send(sms);
    expect(activeTimers()).toBeLessThanOrEqual(before);
  });

  it("honours the caller's AbortSignal", async () => {
    server.emulator.faults.add({ type: 'latency', ms: 1_000 });
    const { c } = client();
    const controller = new AbortController();
    const pending = c.phoneId.lookup('15555550301', {}, { signal: controller.signal });
    setTimeout(() => controller.abort(), 30);
    await expect(pending).rejects.toBeInstanceOf(AbortedError);
  });

  it("leaves no listener on the caller's signal, so one long-lived signal serves any number of requests", async () => {
    const shutdown = new AbortController();
    const { c } = client();
    for (let i = 0; i < 5; i++) await c.voice.status(await placeCall(), { signal: shutdown.signal });
    server.emulator.faults.add({ type: 'latency', ms: 1_000 });
    await expect(c.voice.status('0123456789ABCDEF0123456789ABCDEF', { signal: shutdown.signal, timeoutMs: 50, retry: false })).rejects.toBeInstanceOf(TimeoutError);
    expect(getEventListeners(shutdown.signal, 'abort')).toHaveLength(0);
  });

  describe('where AbortSignal.timeout does not exist (older runtimes)', () => {
    const original = AbortSignal.timeout;
    beforeAll(() => {
      Object.defineProperty(AbortSignal, 'timeout', { value: undefined, configurable: true, writable: true });
    });
    afterAll(() => {
      Object.defineProperty(AbortSignal, 'timeout', { value: original, configurable: true, writable: true });
    });

    it('a timer of its own times out, and is cleared when the attempt ends', async () => {
      expect(AbortSignal.timeout).toBeUndefined();
      server.emulator.faults.add({ type: 'latency', ms: 1_500 });
      const { c } = client({ retry: false, timeoutMs: 100 });
      const before = activeTimers();
      await expect(c.voice.status('0123456789ABCDEF0123456789ABCDEF')).rejects.toBeInstanceOf(TimeoutError);
      expect(activeTimers()).toBeLessThanOrEqual(before);
      const sent = await client({ timeoutMs: 60_000 }).c.messaging.send(sms);
      expect(sent.status).toBe(200);
      expect(activeTimers()).toBeLessThanOrEqual(before);
    });
  });
});

describe.each(TRANSPORTS)('retries, %s', (_name, fetch) => {
  onTransport(fetch);
  it('429 is retried, even for a POST, honouring Retry-After; every attempt is re-signed', async () => {
    server.emulator.faults.add({ type: 'status', status: 429, retryAfterSeconds: 0 });
    const nonces: string[] = [];
    const { c } = client({ hooks: { onRequest: (e) => nonces.push(e.headers['x-ts-nonce']!) } });
    const sent = await c.messaging.send(sms);
    expect(sent.status).toBe(200);
    expect(nonces).toHaveLength(2);
    expect(new Set(nonces).size).toBe(2);
  });

  it('gives up after the retries with a RateLimitError', async () => {
    server.emulator.faults.add({ type: 'status', status: 429, times: 5 });
    const { c, attempts } = client();
    await expect(c.messaging.send(sms)).rejects.toBeInstanceOf(RateLimitError);
    expect(attempts).toEqual([1, 2, 3]);
  });

  it('a GET is retried on 503; a POST is not', async () => {
    server.emulator.faults.add({ type: 'status', status: 503, method: 'GET' });
    const get = client();
    expect((await get.c.voice.status(await placeCall())).status).toBe(200);
    expect(get.attempts).toEqual([1, 2]);
    server.emulator.faults.add({ type: 'status', status: 503, method: 'POST' });
    const post = client();
    await expect(post.c.messaging.send(sms)).rejects.toMatchObject({ name: 'ApiError', status: 503 });
    expect(post.attempts).toEqual([1]);
  });

  it('503 with Retry-After on a GET: the retry waits what the service asked', async () => {
    const id = await placeCall();
    server.emulator.faults.add({ type: 'status', status: 503, method: 'GET', retryAfterSeconds: 1 });
    const delays: number[] = [];
    const { c, attempts } = client({ retry: { retries: 2, minDelayMs: 1, maxDelayMs: 5_000 }, hooks: { onRequest: (e) => attempts.push(e.attempt), onRetry: (e) => delays.push(e.delayMs) } });
    const { status } = await c.voice.status(id);
    expect(status).toBe(200);
    expect(attempts).toEqual([1, 2]);
    expect(delays).toEqual([1_000]);
  });

  it('503 with Retry-After on an SMS: not sent again, the error says when to retry', async () => {
    server.emulator.faults.add({ type: 'status', status: 503, method: 'POST', retryAfterSeconds: 0 });
    const { c, attempts } = client();
    await expect(c.messaging.send(sms)).rejects.toMatchObject({ name: 'ApiError', status: 503, retryAfterMs: 0 });
    expect(attempts).toEqual([1]);
  });

  it.each([429, 503] as const)('a Retry-After longer than maxDelayMs on %i is not waited for: the error at once, with retryAfterMs', async (status) => {
    server.emulator.faults.add({ type: 'status', status, method: 'GET', retryAfterSeconds: 120 });
    const delays: number[] = [];
    const { c, attempts } = client({ retry: { retries: 2, minDelayMs: 1, maxDelayMs: 5_000 }, hooks: { onRequest: (e) => attempts.push(e.attempt), onRetry: (e) => delays.push(e.delayMs) } });
    await expect(c.voice.status('0123456789ABCDEF0123456789ABCDEF')).rejects.toMatchObject({ status, retryAfterMs: 120_000 });
    expect(attempts).toEqual([1]);
    expect(delays).toEqual([]);
  });

  it('a connection dropped after processing is not retried for an SMS: no duplicate in the outbox', async () => {
    // One number per transport: the outbox is shared by both runs.
    const phone = transport ? '15555550312' : '15555550302';
    server.emulator.faults.add({ type: 'drop', method: 'POST', path: '/v1/messaging' });
    const { c, attempts } = client();
    const error = await c.messaging.send({ ...sms, phoneNumber: phone }).catch((e) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).sent).toBe('unknown');
    expect(attempts).toEqual([1]);
    expect(server.emulator.outbox.list({ phoneNumber: phone })).toHaveLength(1);
  });

  it('a dropped GET is retried and succeeds', async () => {
    const id = await placeCall();
    server.emulator.faults.add({ type: 'drop', method: 'GET' });
    const { c, attempts } = client();
    expect((await c.voice.status(id)).data.reference_id).toBe(id);
    expect(attempts).toEqual([1, 2]);
  });

  it('a POST to a refused port is retried (provably not sent), then fails as not sent', async () => {
    const port = await freePort();
    const { c, attempts } = client({ baseUrl: `http://127.0.0.1:${port}` });
    const error = await c.messaging.send(sms).catch((e) => e);
    expect(error).toMatchObject({ name: 'NetworkError', sent: false });
    expect(attempts).toEqual([1, 2, 3]);
  });
});

describe('authentication errors', () => {
  it('reports clock skew with the reason and the clock offset', async () => {
    const { c } = client({ now: () => new Date(Date.now() - 40 * 60_000) });
    const error = await c.messaging.send(sms).catch((e) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, reason: 'clock_skew', serviceCode: 10004 });
    expect((error as AuthenticationError).clockOffsetMs).toBeGreaterThan(30 * 60_000);
    expect((error as Error).message).toMatch(/clock/);
  });

  it('shows both strings to sign on a signature error, and never the key', async () => {
    const { c } = client({ apiKey: btoa('a different key') });
    const error = (await c.messaging.send(sms).catch((e) => e)) as AuthenticationError;
    expect(error.reason).toBe('signature_mismatch');
    expect(error.stringToSign).toBe(error.serverStringToSign);
    expect(JSON.stringify({ ...error, message: error.message })).not.toContain(btoa('a different key'));
  });
});

describe('hooks', () => {
  it('see every request and response, with the signature redacted', async () => {
    const events: unknown[] = [];
    const c = createClient({
      ...DEFAULT_CUSTOMER,
      baseUrl: server.url,
      hooks: { onRequest: (e) => events.push(e), onResponse: (e) => events.push({ status: e.status, attempt: e.attempt }) },
    });
    await c.messaging.send(sms);
    const text = JSON.stringify(events);
    expect(text).toContain('[redacted]');
    expect(text).not.toContain(DEFAULT_CUSTOMER.apiKey);
    expect(text).not.toMatch(/TSA [^:]+:[A-Za-z0-9+/]{20,}/);
    expect(events).toContainEqual({ status: 200, attempt: 1 });
  });
});

describe('odd answers never crash', () => {
  const answer = (status: number, body: string, type = 'text/html') =>
    createClient({ ...DEFAULT_CUSTOMER, retry: false, fetch: (async () => new Response(body, { status, headers: { 'content-type': type } })) as typeof fetch });
  it('a 200 with HTML is an invalid_response ApiError', async () => {
    await expect(answer(200, '<html>proxy</html>').messaging.send(sms)).rejects.toMatchObject({ code: 'invalid_response', status: 200, body: '<html>proxy</html>' });
  });
  it('an empty 200 is an invalid_response ApiError', async () => {
    await expect(answer(200, '').messaging.send(sms)).rejects.toMatchObject({ code: 'invalid_response' });
  });
  it('a 502 with HTML keeps the status and the text', async () => {
    await expect(answer(502, 'Bad gateway').voice.status('A'.repeat(32))).rejects.toMatchObject({ code: 'api_error', status: 502, body: 'Bad gateway', serviceCode: undefined });
  });
  it('a 500 with a JSON body is an error, not a success (unlike the official client)', async () => {
    await expect(answer(500, '{"status":{"code":500,"description":"Transaction not attempted"}}', 'application/json').messaging.send(sms)).rejects.toMatchObject({ status: 500, serviceCode: 500 });
  });
});

async function placeCall(): Promise<string> {
  const { c } = client();
  return (await c.voice.call({ phoneNumber: '15555550303', message: 'x', messageType: 'ARN' })).data.reference_id;
}

// @x/hono on a real server (@hono/node-server on 127.0.0.1): callbacks the emulator sends, the same
// failure answers as Express and Fastify, signed requests from @x/client, the body left readable
// for the handler, and exactly-once processing through every way Hono surfaces a failure.
import { createMemoryReplayStore, signRequest, XError } from '@x/auth';
import { createClient } from '@x/client';
import { startEmulator } from '@x/emulator/node';
import { type CallbackPayload } from '@x/webhooks';
import { createSignedCallback } from '@x/webhooks/testing';
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyCallbacks, verifySignedRequests, type CallbackEnv } from '../src/index.js';
import { credentials, serveApp } from './receivers.js';

let n = 0;
const fresh = (): CallbackPayload => ({
  reference_id: `${(++n).toString(16)}${Math.random().toString(16).slice(2)}`.slice(0, 32).padEnd(32, '0').toUpperCase(),
  sub_resource: 'sms',
  errors: [],
  status: { code: 200, description: 'Delivered to handset', updated_on: '2026-01-01T00:00:00.000000Z' },
});
const post = (url: string, signed: { body: string; headers: Record<string, string> }) => fetch(url, { method: 'POST', body: signed.body, headers: signed.headers });
const lookup = (id: string) => (id === credentials.customerId ? credentials : undefined);

describe('@x/hono callbacks', () => {
  const received: Array<{ payload: CallbackPayload; via: string; json: unknown; text: string }> = [];
  let base: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const options = { ...credentials, replayStore: createMemoryReplayStore(), limit: 2048 };
    const app = new Hono();
    app.post('/cb', verifyCallbacks(options), async (c) => {
      // The body is still readable through Hono after verification.
      received.push({ payload: c.get('callback'), via: c.var.callbackHeader, json: await c.req.json(), text: await c.req.text() });
      return c.json({ ok: true, via: c.get('callbackHeader') });
    });
    app.post('/custom-error', verifyCallbacks({ ...options, onError: (f, c) => c.json({ custom: f.reason, status: f.status }, 418) }), (c) => c.json({ ok: true }));
    ({ base, close } = await serveApp(app));
  });
  afterAll(() => close());

  it('receives and verifies the callbacks the emulator sends', async () => {
    const emulator = await startEmulator({ deliveryDelayMs: 5, customers: [{ ...credentials, callbackUrl: `${base}/cb` }] });
    try {
      const client = createClient({ ...credentials, baseUrl: emulator.url });
      const sent = await client.messaging.send({ phoneNumber: '15555550410', message: 'x', messageType: 'ARN' });
      await emulator.emulator.idle();
      expect(emulator.emulator.callbacks.attempts.at(-1)).toMatchObject({ ok: true, status: 200 });
      const last = received.at(-1)!;
      expect(last.payload).toMatchObject({ reference_id: sent.data.reference_id, status: { code: 200 } });
      expect(last.json).toEqual(last.payload);
    } finally {
      await emulator.close();
    }
  });

  it('a valid callback: c.get("callback") is the payload and the handler can still read the body', async () => {
    const p = fresh();
    const signed = createSignedCallback(p, credentials);
    const r = await post(`${base}/cb`, signed);
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ ok: true, via: 'authorization' });
    expect(received.at(-1)).toEqual({ payload: p, via: 'authorization', json: p, text: signed.body });
  });

  it('accepts X-TS-Authorization alone and reports it', async () => {
    const signed = createSignedCallback(fresh(), credentials);
    const r = await post(`${base}/cb`, { body: signed.body, headers: { 'content-type': 'application/json', 'x-ts-authorization': signed.headers['x-ts-authorization']! } });
    expect(await r.json()).toEqual({ ok: true, via: 'x-ts-authorization' });
  });

  it('the same failure answers as Express and Fastify: 401 tampered / other customer / unsigned, 400 not JSON', async () => {
    const signed = createSignedCallback(fresh(), credentials);
    const tampered = await post(`${base}/cb`, { ...signed, body: signed.body.replace('Delivered', 'Dropped') });
    expect(tampered.status).toBe(401);
    expect(await tampered.json()).toEqual({ error: 'signature_mismatch', message: expect.stringMatching(/raw bytes/) });
    expect((await post(`${base}/cb`, createSignedCallback(fresh(), { ...credentials, customerId: 'someone-else' }))).status).toBe(401);
    const unsigned = await post(`${base}/cb`, { body: JSON.stringify(fresh()), headers: { 'content-type': 'application/json' } });
    expect(unsigned.status).toBe(401);
    expect(await unsigned.json()).toMatchObject({ error: 'missing_signature' });
    const notJson = await post(`${base}/cb`, createSignedCallback('not json', credentials));
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({ error: 'invalid_json' });
  });

  it('413 with the shared body, by Content-Length and for a chunked body without one', async () => {
    const big = createSignedCallback({ ...fresh(), external_id: 'x'.repeat(5_000) } as never, credentials);
    const declared = await post(`${base}/cb`, big);
    expect(declared.status).toBe(413);
    expect(await declared.json()).toEqual({ error: 'body_too_large', message: 'The body is larger than 2048 bytes.' });
    const bytes = new TextEncoder().encode(big.body);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 512) controller.enqueue(bytes.slice(i, i + 512));
        controller.close();
      },
    });
    const chunked = await fetch(`${base}/cb`, { method: 'POST', body: stream, headers: big.headers, duplex: 'half' } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(await chunked.json()).toEqual({ error: 'body_too_large', message: 'The body is larger than 2048 bytes.' });
  });

  it('a duplicate delivery is answered 200 { duplicate: true } and not processed twice', async () => {
    const signed = createSignedCallback(fresh(), credentials);
    const before = received.length;
    expect((await post(`${base}/cb`, signed)).status).toBe(200);
    const again = await post(`${base}/cb`, signed);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ duplicate: true });
    expect(received.length).toBe(before + 1);
  });

  it('options from the Context: a function picks the credentials per request (here by tenant in the path)', async () => {
    const other = { customerId: 'TENANT-B', apiKey: btoa('a key of tenant B') };
    const tenants: Record<string, typeof credentials> = { a: credentials, b: other };
    const app = new Hono();
    app.post('/cb/:tenant', verifyCallbacks((c) => ({ ...tenants[c.req.param('tenant') ?? '']! })), (c) => c.json({ ok: true, ref: c.get('callback').reference_id }));
    const served = await serveApp(app);
    try {
      const p = fresh();
      expect(await (await post(`${served.base}/cb/b`, createSignedCallback(p, other))).json()).toEqual({ ok: true, ref: p.reference_id });
      expect((await post(`${served.base}/cb/a`, createSignedCallback(p, other))).status).toBe(401);
      expect((await post(`${served.base}/cb/a`, createSignedCallback(p, credentials))).status).toBe(200);
    } finally {
      await served.close();
    }
  });

  it('onError replaces the failure answers, not the 200 duplicate', async () => {
    const r = await post(`${base}/custom-error`, { body: '{}', headers: { 'content-type': 'application/json' } });
    expect(r.status).toBe(418);
    expect(await r.json()).toEqual({ custom: 'missing_signature', status: 401 });
    const signed = createSignedCallback(fresh(), credentials);
    await (await post(`${base}/custom-error`, signed)).arrayBuffer();
    const dup = await post(`${base}/custom-error`, signed);
    expect(dup.status).toBe(200);
    expect(await dup.json()).toEqual({ duplicate: true });
  });
});

describe('@x/hono: a body read before the verifier', () => {
  const reached: unknown[] = [];
  const errors: unknown[] = [];
  let base: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const options = { ...credentials, replayStore: createMemoryReplayStore() };
    const app = new Hono();
    const handler = (c: { get(key: 'callback'): CallbackPayload; json(v: unknown): Response }) => {
      reached.push(c.get('callback'));
      return c.json({ ok: true });
    };
    // Read through Hono: it keeps the text (c.req.json(), c.req.text()) or the bytes (arrayBuffer, parseBody).
    app.post('/json-first', async (c, next) => void (await c.req.json().catch(() => undefined), await next()), verifyCallbacks(options), handler);
    app.post('/text-first', async (c, next) => void (await c.req.text(), await next()), verifyCallbacks(options), handler);
    app.post('/bytes-first', async (c, next) => void (await c.req.arrayBuffer(), await next()), verifyCallbacks(options), handler);
    app.post('/small-json-first', async (c, next) => void (await c.req.json().catch(() => undefined), await next()), verifyCallbacks({ ...options, limit: 64 }), handler);
    // Read around Hono: no raw copy is left.
    const around = new Hono();
    around.post('/raw-first', async (c, next) => void (await c.req.raw.text(), await next()), verifyCallbacks(options), handler);
    around.post('/formdata-first', async (c, next) => void (await c.req.formData().catch(() => undefined), await next()), verifyCallbacks(options), handler);
    const withHandler = new Hono();
    withHandler.route('/', around);
    withHandler.onError((error, c) => {
      errors.push(error);
      return c.json({ name: error.name, code: (error as { code?: string }).code, message: error.message }, 500);
    });
    app.route('/handled', withHandler);
    app.route('/default', around);
    ({ base, close } = await serveApp(app));
  });
  afterAll(() => close());

  it.each(['/json-first', '/text-first', '/bytes-first'])('%s: the raw text or bytes Hono kept are verified; a tampered body is still refused', async (path) => {
    const p = fresh();
    const signed = createSignedCallback(p, credentials);
    const r = await post(`${base}${path}`, signed);
    expect(r.status).toBe(200);
    expect(reached.at(-1)).toEqual(p);
    const other = createSignedCallback(fresh(), credentials);
    const before = reached.length;
    expect((await post(`${base}${path}`, { ...other, body: other.body.replace('Delivered', 'Dropped') })).status).toBe(401);
    expect(reached.length).toBe(before);
  });

  it('a body read before the verifier is still held to the limit (413)', async () => {
    const r = await post(`${base}/small-json-first`, createSignedCallback(fresh(), credentials));
    expect(r.status).toBe(413);
    expect(await r.json()).toEqual({ error: 'body_too_large', message: 'The body is larger than 64 bytes.' });
  });

  it.each(['/raw-first', '/formdata-first'])('%s: read around Hono, a typed WebhookError("body_used") that says what to do reaches app.onError', async (path) => {
    const before = reached.length;
    const r = await post(`${base}/handled${path}`, createSignedCallback(fresh(), credentials));
    expect(r.status).toBe(500);
    const body = await r.json();
    expect(body).toMatchObject({ name: 'WebhookError', code: 'body_used' });
    expect(body.message).toMatch(/c\.req\.json\(\)/);
    expect(body.message).not.toMatch(/TypeError/);
    expect(errors.at(-1)).toMatchObject({ name: 'WebhookError', code: 'body_used' });
    expect(errors.at(-1)).toBeInstanceOf(XError);
    expect(reached.length).toBe(before);
  });

  it("without an app.onError, Hono's default answers 500 (the service retries), never a 2xx", async () => {
    const before = reached.length;
    const r = await post(`${base}/default/raw-first`, createSignedCallback(fresh(), credentials));
    expect(r.status).toBe(500);
    expect(reached.length).toBe(before);
  });
});

describe('@x/hono exactly once: every way Hono surfaces a failure releases the delivery', () => {
  let base: string;
  let close: () => Promise<void>;
  const runs = new Map<string, number>();
  const count = (payload: CallbackPayload) => {
    const run = (runs.get(payload.reference_id) ?? 0) + 1;
    runs.set(payload.reference_id, run);
    return run;
  };

  beforeAll(async () => {
    const verify = () => verifyCallbacks({ ...credentials, replayStore: createMemoryReplayStore() });
    // An app whose onError swallows errors with a 200 (c.error is what tells the failure apart).
    const swallowing = new Hono();
    swallowing.post('/throws', verify(), (c) => {
      if (count(c.get('callback')) === 1) throw new Error('database down');
      return c.json({ ok: true });
    });
    swallowing.post('/http-exception', verify(), (c) => {
      if (count(c.get('callback')) === 1) throw new HTTPException(503, { message: 'busy' });
      return c.json({ ok: true });
    });
    swallowing.onError((_error, c) => c.json({ swallowed: true }, 200));
    // No onError: Hono's default answers 500.
    const plain = new Hono();
    plain.post('/throws', verify(), (c) => {
      if (count(c.get('callback')) === 1) throw new Error('database down');
      return c.json({ ok: true });
    });
    // Something that is not an Error goes through next() to the middleware, which rethrows it.
    plain.post('/throws-string', verify(), (c) => {
      if (count(c.get('callback')) === 1) throw 'database down';
      return c.json({ ok: true });
    });
    plain.post('/answers-4xx', verify(), (c) => (count(c.get('callback')) === 1 ? c.json({ error: 'not now' }, 409) : c.json({ ok: true })));
    plain.post('/no-answer', verify(), async (c, next) => {
      if (count(c.get('callback')) === 1) return next(); // nothing answers: Hono's 404
      return c.json({ ok: true });
    });
    // The middleware on a path, the handler on the route, typed by the app's Env.
    const typed = new Hono<CallbackEnv>();
    typed.use('/cb', verify());
    typed.post('/cb', (c) => {
      if (count(c.get('callback')) === 1) throw new Error('database down');
      return c.json({ ok: true, reference_id: c.var.callback.reference_id });
    });
    const app = new Hono();
    app.route('/swallowing', swallowing); // a sub-app with its own onError
    app.route('/plain', plain);
    app.route('/typed', typed);
    ({ base, close } = await serveApp(app));
  });
  afterAll(() => close());

  it.each([
    ['/swallowing/throws', 200],
    ['/swallowing/http-exception', 200],
    ['/plain/throws', 500],
    ['/plain/throws-string', 500],
    ['/plain/answers-4xx', 409],
    ['/plain/no-answer', 404],
    ['/typed/cb', 500],
  ])('%s: the first run fails (answered %i), the retry is processed, then it is a duplicate', async (path, firstStatus) => {
    const p = fresh();
    const signed = createSignedCallback(p, credentials);
    const first = await post(`${base}${path}`, signed);
    expect(first.status).toBe(firstStatus);
    const retry = await post(`${base}${path}`, signed);
    expect(retry.status).toBe(200);
    expect(await retry.json()).toMatchObject({ ok: true });
    const late = await post(`${base}${path}`, signed);
    expect(await late.json()).toEqual({ duplicate: true });
    expect(runs.get(p.reference_id)).toBe(2);
  });
});

describe('@x/hono exactly once: the top-level app.onError answers 2xx for a thrown error', () => {
  it('the delivery is released all the same (c.error), and the retry is processed', async () => {
    let runs = 0;
    const app = new Hono();
    app.post('/cb', verifyCallbacks({ ...credentials, replayStore: createMemoryReplayStore() }), (c) => {
      if (++runs === 1) throw new Error('database down');
      return c.json({ ok: true });
    });
    app.onError((_error, c) => c.json({ swallowed: true }, 200));
    const served = await serveApp(app);
    try {
      const signed = createSignedCallback(fresh(), credentials);
      expect(await (await post(`${served.base}/cb`, signed)).json()).toEqual({ swallowed: true });
      expect(await (await post(`${served.base}/cb`, signed)).json()).toEqual({ ok: true });
      expect(await (await post(`${served.base}/cb`, signed)).json()).toEqual({ duplicate: true });
      expect(runs).toBe(2);
    } finally {
      await served.close();
    }
  });
});

describe('@x/hono signed requests', () => {
  let base: string;
  let close: () => Promise<void>;
  const seen: unknown[] = [];

  beforeAll(async () => {
    const app = new Hono();
    const signed = verifySignedRequests({ credentials: lookup, replayStore: createMemoryReplayStore(), limit: 1024 });
    app.post('/v1/messaging', signed, async (c) => {
      const body = await c.req.parseBody(); // the form body is still readable
      seen.push(body);
      return c.json({ reference_id: 'B'.repeat(32), status: { code: 290, description: 'Message in progress', updated_on: 'now' }, customer: c.get('customerId'), to: body.phone_number });
    });
    app.get('/v1/messaging/:id', signed, (c) => c.json({ reference_id: c.req.param('id'), status: { code: 200, description: 'Delivered', updated_on: 'now' }, customer: c.var.customerId }));
    app.post('/custom', verifySignedRequests({ credentials: lookup, onError: (f, c) => c.json({ custom: f.reason }, 418) }), (c) => c.json({ ok: true }));
    ({ base, close } = await serveApp(app));
  });
  afterAll(() => close());

  const client = () => createClient({ ...credentials, baseUrl: base, retry: false });

  it('accepts requests signed by @x/client (POST form, GET) and sets c.get("customerId")', async () => {
    const r = await client().messaging.send({ phoneNumber: '15555550411', message: 'x', messageType: 'ARN' });
    expect(r.data).toMatchObject({ customer: credentials.customerId, to: '15555550411' });
    expect(seen.at(-1)).toMatchObject({ phone_number: '15555550411', message: 'x' });
    expect((await client().messaging.status('C'.repeat(32))).status).toBe(200);
  });

  // Replayed (10002) and expired (10004) requests: the hostile-input contract (testing/hostile.ts).
  it('401 with the service error body for a tampered body', async () => {
    const url = `${base}/v1/messaging`;
    const body = 'phone_number=15555550412&message=x&message_type=ARN';
    const fresh = signRequest({ method: 'POST', url, contentType: 'application/x-www-form-urlencoded', body }, credentials);
    const tampered = await fetch(url, { method: 'POST', headers: fresh.headers, body: body.replace('x', 'y') });
    expect(tampered.status).toBe(401);
    expect(await tampered.json()).toMatchObject({ error: 'signature_mismatch' });
  });

  it('the client sees a typed AuthenticationError with a wrong key', async () => {
    const wrong = createClient({ ...credentials, apiKey: btoa('wrong'), baseUrl: base, retry: false });
    await expect(wrong.messaging.status('D'.repeat(32))).rejects.toMatchObject({ name: 'AuthenticationError', reason: 'signature_mismatch' });
  });

  it('413 with the shared body over the limit; onError replaces the answer', async () => {
    const url = `${base}/v1/messaging`;
    const body = `phone_number=15555550413&message=${'x'.repeat(2000)}&message_type=ARN`;
    const { headers } = signRequest({ method: 'POST', url, contentType: 'application/x-www-form-urlencoded', body }, credentials);
    const r = await fetch(url, { method: 'POST', headers, body });
    expect(r.status).toBe(413);
    expect(await r.json()).toEqual({ error: 'body_too_large', message: 'The body is larger than 1024 bytes.' });
    const custom = await fetch(`${base}/custom`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(custom.status).toBe(418);
    expect(await custom.json()).toEqual({ custom: 'missing_authorization' });
  });
});

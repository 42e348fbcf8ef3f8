import { createMemoryReplayStore, signRequest } from '@x/auth';
import { createClient } from '@x/client';
import { DEFAULT_CUSTOMER } from '@x/emulator';
import { startEmulator } from '@x/emulator/node';
import { type CallbackPayload } from '@x/webhooks';
import { createSignedCallback } from '@x/webhooks/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { xVerification } from '../src/index.js';

const credentials = DEFAULT_CUSTOMER;
const received: CallbackPayload[] = [];
let app: FastifyInstance;
let base: string;
let n = 0;
const fresh = (): CallbackPayload => ({ reference_id: (++n).toString(16).padStart(32, '0').toUpperCase(), sub_resource: 'sms', errors: [], status: { code: 200, description: 'Delivered to handset', updated_on: '2026-01-01T00:00:00.000000Z' } });

beforeAll(async () => {
  app = Fastify({ bodyLimit: 4096 });
  await app.register(xVerification, {
    callbacks: { customerId: credentials.customerId, apiKey: credentials.apiKey, replayStore: createMemoryReplayStore() },
    signedRequests: { credentials: (id) => (id === credentials.customerId ? credentials : undefined), replayStore: createMemoryReplayStore() },
    callbackRoutes: ['/listed'],
  });
  const handler = async (request: { callback: CallbackPayload | null; callbackHeader: string | null; body: unknown }) => {
    received.push(request.callback!);
    return { ok: true, via: request.callbackHeader, parsedByFastify: (request.body as CallbackPayload).reference_id };
  };
  app.post('/callbacks', { config: { xCallback: true } }, handler);
  app.post('/listed', handler);
  app.post('/small', { config: { xCallback: true }, bodyLimit: 300 }, handler);
  app.post('/plain-json', async (request) => ({ echo: request.body, raw: request.rawBody, callback: request.callback }));
  app.post('/v1/messaging', { config: { xSignedRequest: true } }, async (request) => ({
    reference_id: 'B'.repeat(32), status: { code: 290, description: 'Message in progress', updated_on: 'now' }, customer: request.customerId, to: (request.body as Record<string, string>).phone_number,
  }));
  app.get('/v1/messaging/:id', { config: { xSignedRequest: true } }, async (request) => ({ reference_id: (request.params as { id: string }).id, status: { code: 200, description: 'x', updated_on: 'now' } }));
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))));
  base = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => app.close());

const post = (path: string, body: string, headers: Record<string, string>) => fetch(base + path, { method: 'POST', body, headers });

describe('@x/fastify callbacks', () => {
  it.each(['/callbacks', '/listed'])('verifies a valid callback on %s; Fastify still parses the JSON', async (path) => {
    const p = fresh();
    const signed = createSignedCallback(p, credentials);
    const r = await post(path, signed.body, signed.headers);
    expect(await r.json()).toEqual({ ok: true, via: 'authorization', parsedByFastify: p.reference_id });
    expect(received.at(-1)).toEqual(p);
  });

  it('401 for a tampered body, another customer, or no headers', async () => {
    const signed = createSignedCallback(fresh(), credentials);
    expect((await post('/callbacks', signed.body.replace('200', '230'), signed.headers)).status).toBe(401);
    const other = createSignedCallback(fresh(), { ...credentials, customerId: 'someone-else' });
    expect(await (await post('/callbacks', other.body, other.headers)).json()).toMatchObject({ error: 'customer_mismatch' });
    expect(await (await post('/callbacks', signed.body, { 'content-type': 'application/json' })).json()).toMatchObject({ error: 'missing_signature' });
  });

  it('accepts X-TS-Authorization alone and reports it', async () => {
    const signed = createSignedCallback(fresh(), credentials);
    const r = await post('/callbacks', signed.body, { 'content-type': 'application/json', 'x-ts-authorization': signed.headers['x-ts-authorization']! });
    expect((await r.json()).via).toBe('x-ts-authorization');
  });

  it('honours the route bodyLimit with 413', async () => {
    const big = createSignedCallback({ ...fresh(), external_id: 'x'.repeat(400) }, credentials);
    expect((await post('/small', big.body, big.headers)).status).toBe(413);
  });

  it('a duplicate delivery is answered 200 and not processed twice', async () => {
    const signed = createSignedCallback(fresh(), credentials);
    const before = received.length;
    await post('/callbacks', signed.body, signed.headers);
    const again = await post('/callbacks', signed.body, signed.headers);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ duplicate: true });
    expect(received.length).toBe(before + 1);
  });

  it('leaves routes that did not opt in alone (decorators null, JSON parsed as usual)', async () => {
    const r = await post('/plain-json', '{"a":1}', { 'content-type': 'application/json' });
    expect(await r.json()).toEqual({ echo: { a: 1 }, raw: null, callback: null });
  });

  it('receives and verifies the callbacks the emulator sends', async () => {
    const emulator = await startEmulator({ deliveryDelayMs: 5, customers: [{ ...credentials, callbackUrl: `${base}/callbacks` }] });
    const client = createClient({ ...credentials, baseUrl: emulator.url });
    const sent = await client.voice.call({ phoneNumber: '15555550500', message: 'x', messageType: 'ARN' });
    await emulator.emulator.idle();
    expect(emulator.emulator.callbacks.attempts.at(-1)).toMatchObject({ ok: true, status: 200 });
    expect(received.at(-1)).toMatchObject({ reference_id: sent.data.reference_id, sub_resource: 'voice' });
    await emulator.close();
  });
});

describe('@x/fastify signed requests', () => {
  it('accepts @x/client requests and sets request.customerId', async () => {
    const client = createClient({ ...credentials, baseUrl: base, retry: false });
    const r = await client.messaging.send({ phoneNumber: '15555550501', message: 'x', messageType: 'ARN' });
    expect(r.data).toMatchObject({ customer: credentials.customerId, to: '15555550501' });
    expect((await client.messaging.status('C'.repeat(32))).status).toBe(200);
  });

  it('rejects a replayed (10002) and an expired (10004) request, through inject', async () => {
    const url = '/v1/messaging';
    const body = 'phone_number=15555550502&message=x&message_type=ARN';
    const { headers } = signRequest({ method: 'POST', url, contentType: 'application/x-www-form-urlencoded', body }, credentials);
    expect((await app.inject({ method: 'POST', url, headers, payload: body })).statusCode).toBe(200);
    const replay = await app.inject({ method: 'POST', url, headers, payload: body });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().status.code).toBe(10002);
    const old = signRequest({ method: 'POST', url, contentType: 'application/x-www-form-urlencoded', body }, credentials, { date: new Date(Date.now() - 16 * 60_000) });
    const expired = await app.inject({ method: 'POST', url, headers: old.headers, payload: body });
    expect(expired.json()).toMatchObject({ status: { code: 10004 }, error: 'clock_skew' });
  });
});

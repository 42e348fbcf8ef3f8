import { createMemoryReplayStore } from '@x/auth';
import { createClient } from '@x/client';
import { DEFAULT_CUSTOMER } from '@x/emulator';
import { startEmulator } from '@x/emulator/node';
import { type CallbackPayload } from '@x/webhooks';
import { createSignedCallback } from '@x/webhooks/testing';
import express5 from 'express';
import express4 from 'express4';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyCallbacks, verifySignedRequests } from '../src/index.js';

type ExpressModule = typeof express5;
const frameworks: Array<[string, ExpressModule]> = [['express 5', express5], ['express 4', express4 as unknown as ExpressModule]];
const credentials = DEFAULT_CUSTOMER;
const payload: CallbackPayload = { reference_id: 'A'.repeat(32), sub_resource: 'sms', errors: [], status: { code: 200, description: 'Delivered to handset', updated_on: '2026-01-01T00:00:00.000000Z' } };
for (const [name, express] of frameworks) {
describe(name, () => {
const received: CallbackPayload[] = [];
let server: Server;
let base: string;

beforeAll(async () => {
  const app = express();
  const options = { customerId: credentials.customerId, apiKey: credentials.apiKey, replayStore: createMemoryReplayStore(), limit: 2048 };
  const handler = (req: express5.Request, res: express5.Response) => {
    received.push(req.callback!);
    res.json({ ok: true, via: req.callbackHeader });
  };
  // No parser at all: the middleware reads the stream.
  app.post('/plain', verifyCallbacks(options), handler);
  // express.raw() mounted: the middleware uses its bytes.
  app.post('/raw', express.raw({ type: '*/*' }), verifyCallbacks(options), handler);
  // express.json() with a verify hook that keeps the bytes.
  app.post('/saved', express.json({ verify: (req, _res, buf) => { (req as express5.Request).rawBody = new Uint8Array(buf); } }), verifyCallbacks(options), handler);
  // express.json() that threw the bytes away: fail fast with advice.
  app.post('/parsed', express.json(), verifyCallbacks(options), handler);
  // No key: a programming error, passed to next() whether the bytes were read here or by express.raw().
  app.post('/no-key', verifyCallbacks({ customerId: credentials.customerId }), handler);
  app.post('/no-key-raw', express.raw({ type: '*/*' }), verifyCallbacks({ customerId: credentials.customerId }), handler);
  app.post('/custom-error', verifyCallbacks({ ...options, onError: (f, _req, res) => void res.status(418).json({ custom: f.body.error }) }), handler);
  // Signed requests, as the service signs them.
  const signed = verifySignedRequests({ credentials: (id) => (id === credentials.customerId ? credentials : undefined), replayStore: createMemoryReplayStore() });
  app.post('/v1/messaging', signed, (req, res) => {
    res.json({ reference_id: 'B'.repeat(32), status: { code: 290, description: 'Message in progress', updated_on: 'now' }, customer: req.customerId, to: req.body.phone_number });
  });
  app.get('/v1/messaging/:id', signed, (req, res) => void res.json({ reference_id: req.params.id, status: { code: 200, description: 'Delivered', updated_on: 'now' } }));
  app.use((error: Error, _req: express5.Request, res: express5.Response, _next: express5.NextFunction) => void res.status(500).json({ error: error.message }));
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const post = (path: string, body: string, headers: Record<string, string>) => fetch(base + path, { method: 'POST', body, headers });
let n = 0;
const fresh = (): CallbackPayload => ({ ...payload, reference_id: (++n).toString(16).padStart(32, '0').toUpperCase() });

describe('@x/express callbacks', () => {
  it.each(['/no-key', '/no-key-raw'])('passes a missing key to the error handler on %s (never an answer that says the callback was refused)', async (path) => {
    const signed = createSignedCallback(fresh(), credentials);
    const r = await post(path, signed.body, signed.headers);
    expect(r.status).toBe(500);
    expect((await r.json()).error).toMatch(/apiKey/);
  });

  it.each(['/plain', '/raw', '/saved'])('verifies a valid callback on %s and types req.callback', async (path) => {
    const p = fresh();
    const signed = createSignedCallback(p, credentials);
    const r = await post(path, signed.body, signed.headers);
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ ok: true, via: 'authorization' });
    expect(received.at(-1)).toEqual(p);
  });

  it('401 for a tampered body', async () => {
    const signed = createSignedCallback(fresh(), credentials);
    const r = await post('/plain', signed.body.replace('200', '230'), signed.headers);
    expect(r.status).toBe(401);
    expect(await r.json()).toMatchObject({ error: 'signature_mismatch' });
  });

  it('401 for another customer', async () => {
    const signed = createSignedCallback(fresh(), { ...credentials, customerId: 'someone-else' });
    expect((await post('/plain', signed.body, signed.headers)).status).toBe(401);
  });

  it('accepts X-TS-Authorization alone and reports it', async () => {
    const signed = createSignedCallback(fresh(), credentials);
    const r = await post('/raw', signed.body, { 'content-type': 'application/json', 'x-ts-authorization': signed.headers['x-ts-authorization']! });
    expect(await r.json()).toEqual({ ok: true, via: 'x-ts-authorization' });
  });

  it('401 without signature headers', async () => {
    const r = await post('/plain', JSON.stringify(fresh()), { 'content-type': 'application/json' });
    expect(r.status).toBe(401);
    expect(await r.json()).toMatchObject({ error: 'missing_signature' });
  });

  it('fails fast, saying how to mount it, when express.json() already consumed the body', async () => {
    const signed = createSignedCallback(fresh(), credentials);
    const r = await post('/parsed', signed.body, signed.headers);
    expect(r.status).toBe(500);
    expect((await r.json()).error).toMatch(/express\.raw|verify/);
  });

  it('413 for an oversized body', async () => {
    const big = createSignedCallback({ ...fresh(), external_id: 'x'.repeat(5_000) }, credentials);
    expect((await post('/plain', big.body, big.headers)).status).toBe(413);
  });

  it('a duplicate delivery is answered 200 and not processed twice', async () => {
    const signed = createSignedCallback(fresh(), credentials);
    const before = received.length;
    expect((await post('/plain', signed.body, signed.headers)).status).toBe(200);
    const again = await post('/plain', signed.body, signed.headers);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ duplicate: true });
    expect(received.length).toBe(before + 1);
  });

  it('onError replaces the default answer', async () => {
    const r = await post('/custom-error', '{}', { 'content-type': 'application/json' });
    expect(r.status).toBe(418);
    expect(await r.json()).toEqual({ custom: 'missing_signature' });
  });

  it('receives and verifies the callbacks the emulator sends', async () => {
    const emulator = await startEmulator({ deliveryDelayMs: 5, customers: [{ ...credentials, callbackUrl: `${base}/plain` }] });
    const client = createClient({ ...credentials, baseUrl: emulator.url });
    const sent = await client.messaging.send({ phoneNumber: '15555550400', message: 'x', messageType: 'ARN' });
    await emulator.emulator.idle();
    expect(emulator.emulator.callbacks.attempts.at(-1)).toMatchObject({ ok: true, status: 200 });
    expect(received.at(-1)).toMatchObject({ reference_id: sent.data.reference_id, status: { code: 200 } });
    await emulator.close();
  });
});

describe('@x/express signed requests', () => {
  // Replayed (10002) and expired (10004) requests: the hostile-input contract (testing/hostile.ts).
  const client = () => createClient({ ...credentials, baseUrl: base, retry: false });
  it('accepts a request signed by @x/client and sets req.customerId', async () => {
    const r = await client().messaging.send({ phoneNumber: '15555550401', message: 'x', messageType: 'ARN' });
    expect(r.data).toMatchObject({ customer: credentials.customerId, to: '15555550401' });
    expect((await client().messaging.status('C'.repeat(32))).status).toBe(200);
  });

  it('the client sees a typed AuthenticationError with a wrong key', async () => {
    const wrong = createClient({ ...credentials, apiKey: btoa('wrong'), baseUrl: base, retry: false });
    await expect(wrong.messaging.status('D'.repeat(32))).rejects.toMatchObject({ name: 'AuthenticationError', reason: 'signature_mismatch' });
  });
});

});
}

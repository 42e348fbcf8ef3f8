// Hostile input at the Fastify adapter, as for Express: bodies that were not verified never
// reach the handler (a signed GET with an added body), one 413 answer, and distinct events of
// one call (v2 voice events) are not collapsed into one.
import { createMemoryReplayStore, signRequest } from '@x/auth';
import { createSignedCallback } from '@x/webhooks/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { xVerification } from '../src/index.js';
import { credentials } from './receivers.js';

const reached: unknown[] = [];
let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  app = Fastify();
  await app.register(xVerification, {
    callbacks: { ...credentials, replayStore: createMemoryReplayStore() },
    signedRequests: { credentials: (id) => (id === credentials.customerId ? credentials : undefined), replayStore: createMemoryReplayStore() },
  });
  const handler = async (request: { body: unknown; rawBody: Uint8Array | null }) => {
    reached.push(request.body);
    return { ok: true, body: request.body ?? null };
  };
  app.get('/signed', { config: { xSignedRequest: true } }, handler);
  app.get('/callback', { config: { xCallback: true } }, handler);
  app.post('/small', { config: { xCallback: true }, bodyLimit: 64 }, handler);
  app.post('/v2', { config: { xCallback: true } }, handler);
  base = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => app.close());

const injected = JSON.stringify({ phone_number: '15555550999', amount: 1_000_000 });

describe('fastify: hostile input', () => {
  it('a signed GET without a body reaches the handler', async () => {
    const r = await fetch(`${base}/signed`, { headers: signRequest({ method: 'GET', url: `${base}/signed` }, credentials).headers });
    expect(r.status).toBe(200);
  });

  it('a signed GET carrying an unsigned body never reaches the handler', async () => {
    const before = reached.length;
    const headers = { ...signRequest({ method: 'GET', url: `${base}/signed` }, credentials).headers, 'content-type': 'application/json' };
    const r = await rawRequest(`${base}/signed`, 'GET', headers, injected);
    expect(r.status).toBe(401);
    expect(reached.length).toBe(before);
  });

  it('a callback on GET with an unsigned body never reaches the handler', async () => {
    const before = reached.length;
    const r = await rawRequest(`${base}/callback`, 'GET', { ...createSignedCallback('', credentials).headers }, injected);
    expect(r.status).not.toBe(200);
    expect(reached.length).toBe(before);
  });

  it('413 answers like every adapter: { error: "body_too_large" }', async () => {
    const big = createSignedCallback(JSON.stringify({ pad: 'x'.repeat(200) }), credentials);
    const r = await fetch(`${base}/small`, { method: 'POST', body: big.body, headers: big.headers });
    expect(r.status).toBe(413);
    expect(await r.json()).toEqual({ error: 'body_too_large', message: 'The body is larger than 64 bytes.' });
  });

  it('two v2 voice events of one call both reach the handler (not collapsed into one duplicate)', async () => {
    const before = reached.length;
    for (const event of ['incoming_call', 'dial_completed']) {
      const signed = createSignedCallback(JSON.stringify({ event, reference_id: '6a1e54ec-4a4b-4a0e-9d5c-5e2d7c3c1f00', data: { to: '+15555550100' } }), credentials);
      const r = await fetch(`${base}/v2`, { method: 'POST', body: signed.body, headers: signed.headers });
      expect(await r.json()).toMatchObject({ ok: true });
    }
    expect(reached.length).toBe(before + 2);
  });
});

function rawRequest(url: string, method: string, headers: Record<string, string>, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

// Hostile input at the Express adapter: bodies that were not verified never reach the handler
// (a signed GET with an added body, behind a global express.json() or not), one 413 answer,
// and distinct events of one call (v2 voice events) are not collapsed into one.
import { createMemoryReplayStore, signRequest } from '@x/auth';
import { createSignedCallback } from '@x/webhooks/testing';
import type express5 from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyCallbacks, verifySignedRequests } from '../src/index.js';
import { credentials, frameworks, listen } from './receivers.js';

for (const [name, express] of frameworks) {
  describe(`${name}: hostile input`, () => {
    const reached: unknown[] = [];
    let base: string;
    let close: () => Promise<void>;

    beforeAll(async () => {
      const signed = () => verifySignedRequests({ credentials: (id) => (id === credentials.customerId ? credentials : undefined), replayStore: createMemoryReplayStore() });
      const handler = (req: express5.Request, res: express5.Response) => {
        reached.push(req.body);
        res.json({ ok: true, body: req.body ?? null });
      };
      // A global JSON parser that keeps no raw bytes, before the verifiers.
      const parsedFirst = express();
      parsedFirst.use(express.json({ type: () => true }));
      parsedFirst.get('/signed', signed(), handler);
      parsedFirst.get('/callback', verifyCallbacks({ ...credentials }), handler);
      parsedFirst.use((error: Error, _req: express5.Request, res: express5.Response, _next: express5.NextFunction) => void res.status(500).json({ error: error.message }));
      // No parser: the verifiers read the stream themselves.
      const plain = express();
      plain.get('/signed', signed(), handler);
      plain.get('/callback', verifyCallbacks({ ...credentials }), handler);
      plain.post('/small', verifyCallbacks({ ...credentials, limit: 64 }), handler);
      plain.post('/v2', verifyCallbacks({ ...credentials, replayStore: createMemoryReplayStore() }), handler);
      const app = express();
      app.use('/parsed-first', parsedFirst);
      app.use('/plain', plain);
      ({ base, close } = await listen(app));
    });
    afterAll(() => close());

    const signedGet = (path: string) => signRequest({ method: 'GET', url: base + path }, credentials).headers;
    const injected = JSON.stringify({ phone_number: '15555550999', amount: 1_000_000 });

    it('a signed GET without a body reaches the handler, with and without a global express.json()', async () => {
      for (const prefix of ['/parsed-first', '/plain']) {
        const r = await fetch(`${base}${prefix}/signed`, { headers: signedGet(`${prefix}/signed`) });
        expect(r.status).toBe(200);
      }
    });

    it.each(['/parsed-first', '/plain'])('%s: a signed GET carrying an unsigned body never reaches the handler', async (prefix) => {
      const before = reached.length;
      const headers = { ...signedGet(`${prefix}/signed`), 'content-type': 'application/json' };
      // fetch() refuses GET bodies: send it with node:http.
      const r = await rawRequest(`${base}${prefix}/signed`, 'GET', headers, injected);
      expect(r.status).not.toBe(200);
      expect([401, 500]).toContain(r.status);
      expect(reached.length).toBe(before);
    });

    it.each(['/parsed-first', '/plain'])('%s: a callback on GET with an unsigned body never reaches the handler', async (prefix) => {
      const before = reached.length;
      const emptySigned = createSignedCallback('', credentials);
      const r = await rawRequest(`${base}${prefix}/callback`, 'GET', { ...emptySigned.headers }, injected);
      expect(r.status).not.toBe(200);
      expect(reached.length).toBe(before);
    });

    it('413 answers like every adapter: { error: "body_too_large" }', async () => {
      const big = createSignedCallback(JSON.stringify({ pad: 'x'.repeat(200) }), credentials);
      const r = await fetch(`${base}/plain/small`, { method: 'POST', body: big.body, headers: big.headers });
      expect(r.status).toBe(413);
      expect(await r.json()).toEqual({ error: 'body_too_large', message: 'The body is larger than 64 bytes.' });
    });

    it('two v2 voice events of one call both reach the handler (not collapsed into one duplicate)', async () => {
      const before = reached.length;
      for (const event of ['incoming_call', 'dial_completed']) {
        const signed = createSignedCallback(JSON.stringify({ event, reference_id: '6a1e54ec-4a4b-4a0e-9d5c-5e2d7c3c1f00', data: { to: '+15555550100' } }), credentials);
        const r = await fetch(`${base}/plain/v2`, { method: 'POST', body: signed.body, headers: signed.headers });
        expect(await r.json()).toMatchObject({ ok: true });
      }
      expect(reached.length).toBe(before + 2);
    });
  });
}

import { request as httpRequest } from 'node:http';
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

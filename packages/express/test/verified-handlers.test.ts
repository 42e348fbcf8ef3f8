// verifiedCallback / verifiedRequest: handlers typed with req.callback / req.customerId present,
// that refuse to run (a typed error to next) when the verifier is not mounted before them.
// Express 5 and 4, real servers on 127.0.0.1.
import { XError } from '@x/auth';
import { DEFAULT_CUSTOMER } from '@x/emulator';
import { WebhookError, type CallbackPayload } from '@x/webhooks';
import { createSignedCallback } from '@x/webhooks/testing';
import { signRequest } from '@x/auth';
import express5 from 'express';
import express4 from 'express4';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifiedCallback, verifiedRequest, verifyCallbacks, verifySignedRequests } from '../src/index.js';

type ExpressModule = typeof express5;
const frameworks: Array<[string, ExpressModule]> = [['express 5', express5], ['express 4', express4 as unknown as ExpressModule]];
const credentials = DEFAULT_CUSTOMER;
const payload: CallbackPayload = { reference_id: 'C'.repeat(32), sub_resource: 'sms', errors: [], status: { code: 200, description: 'Delivered to handset', updated_on: '2026-01-01T00:00:00Z' } };

for (const [name, express] of frameworks) {
  describe(`${name}: verified handlers`, () => {
    let server: Server;
    let base: string;
    const errors: unknown[] = [];

    beforeAll(async () => {
      const app = express();
      const callbacks = verifyCallbacks({ customerId: credentials.customerId, apiKey: credentials.apiKey });
      const signed = verifySignedRequests({ credentials: (id) => (id === credentials.customerId ? credentials : undefined) });
      app.post('/callbacks/:tenant', callbacks, verifiedCallback((req, res) => void res.json({ tenant: req.params.tenant, id: req.callback.reference_id, via: req.callbackHeader })));
      app.post('/unverified', verifiedCallback((req, res) => void res.json({ id: req.callback.reference_id })));
      app.post('/failing', callbacks, verifiedCallback(async () => {
        throw new Error('handler failed');
      }));
      app.get('/v1/messaging/:id', signed, verifiedRequest((req, res) => void res.json({ customer: req.customerId, id: req.params.id })));
      app.post('/with-on-error', verifyCallbacks({ ...credentials, onError: (failure, _req, res) => void res.status(failure.status).json({ reason: failure.reason }) }), verifiedCallback((_req, res) => void res.end()));
      app.get('/unsigned/:id', verifiedRequest((req, res) => void res.json({ customer: req.customerId })));
      app.use((error: Error & { code?: string }, _req: express5.Request, res: express5.Response, _next: express5.NextFunction) => {
        errors.push(error);
        res.status(500).json({ code: error.code ?? null, message: error.message });
      });
      server = await new Promise<Server>((resolve) => {
        const s = app.listen(0, '127.0.0.1', () => resolve(s));
      });
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('verifiedCallback runs the handler with the verified callback and the route params', async () => {
      const signedCallback = createSignedCallback(payload, credentials);
      const answer = await fetch(`${base}/callbacks/acme`, { method: 'POST', body: signedCallback.body, headers: signedCallback.headers });
      expect(await answer.json()).toEqual({ tenant: 'acme', id: payload.reference_id, via: 'authorization' });
    });

    it('verifiedCallback without verifyCallbacks in front: WebhookError not_verified to next, handler not run', async () => {
      const signedCallback = createSignedCallback(payload, credentials);
      const answer = await fetch(`${base}/unverified`, { method: 'POST', body: signedCallback.body, headers: signedCallback.headers });
      expect(answer.status).toBe(500);
      const body = (await answer.json()) as { code: string; message: string };
      expect(body.code).toBe('not_verified');
      expect(body.message).toMatch(/verifyCallbacks\(options\)/);
      expect(errors.at(-1)).toBeInstanceOf(WebhookError);
      expect(errors.at(-1)).toBeInstanceOf(XError);
    });

    it("an async handler's failure reaches the error handler (Express 4 included)", async () => {
      const signedCallback = createSignedCallback({ ...payload, reference_id: 'D'.repeat(32) }, credentials);
      const answer = await fetch(`${base}/failing`, { method: 'POST', body: signedCallback.body, headers: signedCallback.headers });
      expect(answer.status).toBe(500);
      expect(await answer.json()).toMatchObject({ message: 'handler failed' });
    });

    it("onError is told the failure's reason, as in @x/hono", async () => {
      const other = createSignedCallback(payload, { ...credentials, apiKey: btoa('another key') });
      const answer = await fetch(`${base}/with-on-error`, { method: 'POST', body: other.body, headers: other.headers });
      expect(answer.status).toBe(401);
      expect(await answer.json()).toEqual({ reason: 'signature_mismatch' });
    });

    it('verifiedRequest runs the handler with the verified customer; without verifySignedRequests it refuses', async () => {
      const url = `${base}/v1/messaging/ABC`;
      const { headers } = signRequest({ method: 'GET', url }, credentials);
      expect(await (await fetch(url, { headers })).json()).toEqual({ customer: credentials.customerId, id: 'ABC' });
      const refused = await fetch(`${base}/unsigned/ABC`, { headers });
      expect(refused.status).toBe(500);
      const body = (await refused.json()) as { code: string; message: string };
      expect(body.code).toBe('not_verified');
      expect(body.message).toMatch(/verifySignedRequests\(options\)/);
    });
  });
}

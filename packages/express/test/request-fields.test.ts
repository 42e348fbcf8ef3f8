// req.callback, req.callbackHeader and req.customerId as a handler sees them: set on the request
// object the verifier ran on, as Express documents for middleware, and nowhere else (no getter on
// Express's shared `express.request`, which every app in the process inherits from).
import { createMemoryReplayStore, createSigner } from '@x/auth';
import { DEFAULT_CUSTOMER } from '@x/emulator';
import type { CallbackPayload } from '@x/webhooks';
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
let n = 0;
const fresh = (): CallbackPayload => ({
  reference_id: (++n).toString(16).padStart(32, '0').toUpperCase(),
  sub_resource: 'sms',
  errors: [],
  status: { code: 200, description: 'Delivered to handset', updated_on: '2026-01-01T00:00:00.000000Z' },
});

const FIELDS = ['callback', 'callbackHeader', 'customerId'];

for (const [name, express] of frameworks) {
  describe(`${name}: the fields the verifiers set`, () => {
    // What Express's shared request prototype has before any verifier ran.
    const sharedBefore = Reflect.ownKeys(express.request).map(String);
    let server: Server;
    let base: string;
    const ownBefore = new WeakMap<object, string[]>();

    beforeAll(async () => {
      const app = express();
      // Records the request's own properties before the verifier runs.
      const snapshot: express5.RequestHandler = (req, _res, next) => {
        ownBefore.set(req, Reflect.ownKeys(req).map(String));
        next();
      };
      // Node's stream adds its own (`_eventsCount`) to any request that is read, by whatever reads it.
      const added = (req: express5.Request) =>
        Reflect.ownKeys(req).map(String).filter((key) => !ownBefore.get(req)!.includes(key) && !key.startsWith('_'));
      const options = { customerId: credentials.customerId, apiKey: credentials.apiKey, replayStore: createMemoryReplayStore() };
      app.post('/callbacks', snapshot, verifyCallbacks(options), (req, res) => {
        res.json({ added: added(req), id: req.callback?.reference_id, via: req.callbackHeader, body: req.body === req.callback });
      });
      // A handler that replaces the field: it reads back what it wrote.
      app.post('/replace', verifyCallbacks(options), (req, res) => {
        req.callback = { ...req.callback!, reference_id: 'REPLACED' };
        req.callbackHeader = 'x-ts-authorization';
        res.json({ id: req.callback.reference_id, via: req.callbackHeader });
      });
      // A route no verifier ran on, on the same app: nothing is set.
      app.post('/unverified', (req, res) => void res.json({ callback: req.callback ?? null, via: req.callbackHeader ?? null, customer: req.customerId ?? null }));
      // A sub-app's route passes an error up: the parent's error handler still reads the fields.
      const sub = express();
      sub.post('/callbacks', verifyCallbacks(options), (_req, _res, next) => next(new Error('handler failed')));
      app.use('/sub', sub);
      const signed = verifySignedRequests({ credentials: (id) => (id === credentials.customerId ? credentials : undefined) });
      app.post('/v1/messaging', snapshot, signed, (req, res) => void res.json({ added: added(req), customer: req.customerId, to: req.body.phone_number }));
      app.use((error: Error, req: express5.Request, res: express5.Response, _next: express5.NextFunction) => {
        res.status(500).json({ error: error.message, id: req.callback?.reference_id ?? null, via: req.callbackHeader ?? null });
      });
      server = await new Promise<Server>((resolve) => {
        const s = app.listen(0, '127.0.0.1', () => resolve(s));
      });
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    const deliver = (path: string, payload = fresh()) => {
      const signed = createSignedCallback(payload, credentials);
      return fetch(base + path, { method: 'POST', body: signed.body, headers: signed.headers });
    };

    it('gives the handler req.callback and req.callbackHeader as own properties of its request', async () => {
      const payload = fresh();
      const r = await deliver('/callbacks', payload);
      expect(r.status).toBe(200);
      expect(await r.json()).toEqual({ added: ['body', 'callback', 'callbackHeader'], id: payload.reference_id, via: 'authorization', body: true });
    });

    it("changes no shared Express prototype: a second app in the process sees no new property on its requests", async () => {
      expect((await deliver('/callbacks')).status).toBe(200);
      const body = 'phone_number=15555551234&message=hi&message_type=ARN';
      const { headers } = createSigner(credentials).sign({ method: 'POST', url: `${base}/v1/messaging`, contentType: 'application/x-www-form-urlencoded', body });
      expect((await fetch(`${base}/v1/messaging`, { method: 'POST', body, headers })).status).toBe(200);
      expect(Reflect.ownKeys(express.request).map(String)).toEqual(sharedBefore);
      const other = express();
      other.get('/', (req, res) => void res.json({ seen: FIELDS.filter((field) => field in req), proto: FIELDS.filter((field) => field in Object.getPrototypeOf(Object.getPrototypeOf(req))) }));
      const server2 = await new Promise<Server>((resolve) => {
        const s = other.listen(0, '127.0.0.1', () => resolve(s));
      });
      try {
        const r = await fetch(`http://127.0.0.1:${(server2.address() as AddressInfo).port}/`);
        expect(await r.json()).toEqual({ seen: [], proto: [] });
      } finally {
        await new Promise<void>((resolve) => server2.close(() => resolve()));
      }
    });

    it('lets a handler assign the fields', async () => {
      expect(await (await deliver('/replace')).json()).toEqual({ id: 'REPLACED', via: 'x-ts-authorization' });
    });

    it('sets nothing on a request no verifier ran on, after verified ones', async () => {
      expect((await deliver('/callbacks')).status).toBe(200);
      const r = await fetch(`${base}/unverified`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
      expect(await r.json()).toEqual({ callback: null, via: null, customer: null });
    });

    it("keeps the fields readable in the parent app's error handler after a sub-app's route", async () => {
      const payload = fresh();
      const r = await deliver('/sub/callbacks', payload);
      expect(r.status).toBe(500);
      expect(await r.json()).toEqual({ error: 'handler failed', id: payload.reference_id, via: 'authorization' });
    });

    it('gives req.customerId to a signed request as an own property, besides req.body', async () => {
      const body = 'phone_number=15555551234&message=hi&message_type=ARN';
      const url = `${base}/v1/messaging`;
      const { headers } = createSigner(credentials).sign({ method: 'POST', url, contentType: 'application/x-www-form-urlencoded', body });
      const r = await fetch(url, { method: 'POST', body, headers });
      expect(await r.json()).toEqual({ added: ['body', 'customerId'], customer: credentials.customerId, to: '15555551234' });
    });
  });
}

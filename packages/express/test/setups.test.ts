// Every setup the README documents, on Express 4 and 5, for callbacks and signed requests (JSON
// and form bodies): the verifier before the parsers, express.raw() on the route, a global
// express.json() / express.urlencoded() with the exported `saveRawBody` verify hook, and a global
// parser without it (a typed WebhookError that says what to do). No body-parser internals are set,
// and a verifier that read the stream itself keeps no req.rawBody.
import { createMemoryReplayStore, signRequest } from '@x/auth';
import { WebhookError, type CallbackPayload } from '@x/webhooks';
import { createSignedCallback } from '@x/webhooks/testing';
import type express5 from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveRawBody, verifyCallbacks, verifySignedRequests } from '../src/index.js';
import { credentials, frameworks, listen } from './receivers.js';

type Seen = { callback?: unknown; customerId?: string; body: unknown; internals: boolean; rawBody: boolean };

for (const [name, express] of frameworks) {
  describe(`${name}: documented setups`, () => {
    let base: string;
    let close: () => Promise<void>;
    const seen: Seen[] = [];
    const errors: unknown[] = [];

    beforeAll(async () => {
      const callbacks = () => verifyCallbacks({ ...credentials, replayStore: createMemoryReplayStore() });
      const signed = () => verifySignedRequests({ credentials: (id) => (id === credentials.customerId ? credentials : undefined), replayStore: createMemoryReplayStore() });
      const handler = (req: express5.Request, res: express5.Response) => {
        seen.push({ callback: req.callback, customerId: req.customerId, body: req.body, internals: '_body' in req, rawBody: 'rawBody' in req });
        res.json({ ok: true, body: req.body ?? null });
      };
      const onError = (error: Error, _req: express5.Request, res: express5.Response, _next: express5.NextFunction) => {
        errors.push(error);
        res.status(500).json({ name: error.name, code: (error as WebhookError).code, message: error.message });
      };
      const sub = () => express.Router();

      // 1. The verifier before the parsers: the routes are registered before the global parsers,
      //    which never run for them; the verifier reads the stream and sets req.body itself.
      const first = sub();
      first.post('/callback', callbacks(), handler);
      first.post('/signed', signed(), handler);
      first.use(express.json());
      first.use(express.urlencoded({ extended: false }));
      first.post('/other', handler);

      // 2. express.raw() on the route (any global parser skips bodies that raw() already read).
      const raw = sub();
      raw.post('/callback', express.raw({ type: '*/*' }), callbacks(), handler);
      raw.post('/signed', express.raw({ type: '*/*' }), signed(), handler);

      // 3. A global express.json() with the exported verify hook.
      const json = sub();
      json.use(express.json({ verify: saveRawBody }));
      json.post('/callback', callbacks(), handler);
      json.post('/signed', signed(), handler);

      // 4. A global express.urlencoded() with the exported verify hook.
      const form = sub();
      form.use(express.urlencoded({ extended: false, verify: saveRawBody }));
      form.post('/callback', callbacks(), handler);
      form.post('/signed', signed(), handler);

      // 5. Both global parsers with the hook.
      const both = sub();
      both.use(express.json({ verify: saveRawBody }), express.urlencoded({ extended: false, verify: saveRawBody }));
      both.post('/callback', callbacks(), handler);
      both.post('/signed', signed(), handler);

      // 6. A global express.json() WITHOUT the hook: the bytes are gone.
      const lost = sub();
      lost.use(express.json());
      lost.post('/callback', callbacks(), handler);
      lost.post('/signed', signed(), handler);
      // ...and a middleware that waits before the verifier: the whole body has arrived (req.complete)
      // but nobody read it, which is not "consumed".
      lost.post('/slow-signed', (_req, _res, next) => void setTimeout(next, 30), signed(), handler);

      // 7. Not a setup: a parser that runs AFTER the verifier on the same request (not needed: the
      //    verifier already set req.body) finds the stream ended.
      const after = sub();
      after.use(signed());
      after.use(express.urlencoded({ extended: false }));
      after.post('/signed', handler);

      const app = express();
      for (const [path, router] of [['/first', first], ['/raw', raw], ['/json', json], ['/form', form], ['/both', both], ['/lost', lost], ['/after', after]] as const) app.use(path, router);
      app.use(onError);
      ({ base, close } = await listen(app));
    });
    afterAll(() => close());

    let n = 0;
    const payload = (): CallbackPayload => ({
      reference_id: `${name.length}${(++n).toString(16)}`.padStart(32, 'E').toUpperCase(),
      sub_resource: 'sms',
      errors: [],
      status: { code: 200, description: 'Delivered to handset', updated_on: '2026-01-01T00:00:00.000000Z' },
    });
    const postCallback = (path: string) => {
      const p = payload();
      const s = createSignedCallback(p, credentials);
      return { p, response: fetch(`${base}${path}`, { method: 'POST', body: s.body, headers: s.headers }) };
    };
    const postSigned = (path: string, contentType: string, body: string) => {
      const url = `${base}${path}`;
      const { headers } = signRequest({ method: 'POST', url, contentType, body }, credentials);
      return fetch(url, { method: 'POST', headers, body });
    };
    const form = 'phone_number=15555550123&message=hello%20there&message_type=ARN';
    const json = JSON.stringify({ phone_number: '15555550123', message: 'hello there' });

    describe.each(['/first', '/raw', '/json', '/form', '/both'])('%s', (prefix) => {
      it('a signed callback reaches the handler with req.callback; a tampered copy gets 401', async () => {
        const { p, response } = postCallback(`${prefix}/callback`);
        const r = await response;
        expect(r.status).toBe(200);
        expect(seen.at(-1)!.callback).toEqual(p);
        const s = createSignedCallback(payload(), credentials);
        const tampered = await fetch(`${base}${prefix}/callback`, { method: 'POST', body: s.body.replace('Delivered', 'Dropped'), headers: s.headers });
        expect(tampered.status).toBe(401);
      });

      it('a signed form request reaches the handler with req.customerId; a tampered one gets 401', async () => {
        const r = await postSigned(`${prefix}/signed`, 'application/x-www-form-urlencoded', form);
        expect(r.status).toBe(200);
        expect(seen.at(-1)!.customerId).toBe(credentials.customerId);
        const url = `${base}${prefix}/signed`;
        const { headers } = signRequest({ method: 'POST', url, contentType: 'application/x-www-form-urlencoded', body: form }, credentials);
        expect((await fetch(url, { method: 'POST', headers, body: form.replace('hello', 'howdy') })).status).toBe(401);
      });

      it('a signed JSON request reaches the handler', async () => {
        const r = await postSigned(`${prefix}/signed`, 'application/json', json);
        expect(r.status).toBe(200);
        expect(seen.at(-1)!.customerId).toBe(credentials.customerId);
      });
    });

    it('the verifier before the parsers leaves the parsed body: JSON callbacks and form requests', async () => {
      const { p, response } = postCallback('/first/callback');
      expect(await (await response).json()).toEqual({ ok: true, body: p });
      const r = await postSigned('/first/signed', 'application/x-www-form-urlencoded', form);
      expect((await r.json()).body).toEqual({ phone_number: '15555550123', message: 'hello there', message_type: 'ARN' });
      // Only what this package documents is set (req.body, and req.callback or req.customerId), no
      // body-parser flag and no req.rawBody (each property added to an Express request is costly).
      expect(seen.slice(-2).map((s) => [s.internals, s.rawBody])).toEqual([
        [false, false],
        [false, false],
      ]);
    });

    it('the saveRawBody hook keeps the parsed body the parsers made', async () => {
      const r = await postSigned('/both/signed', 'application/x-www-form-urlencoded', form);
      expect((await r.json()).body).toEqual({ phone_number: '15555550123', message: 'hello there', message_type: 'ARN' });
      const j = await postSigned('/json/signed', 'application/json', json);
      expect((await j.json()).body).toEqual(JSON.parse(json));
    });

    it.each(['/lost/callback', '/lost/signed'])('a global express.json() without saveRawBody: %s passes a WebhookError("body_parsed") that says what to do', async (path) => {
      const before = seen.length;
      const r = path.endsWith('callback') ? await postCallback(path).response : await postSigned(path, 'application/json', json);
      expect(r.status).toBe(500);
      const error = errors.at(-1);
      expect(error).toBeInstanceOf(WebhookError);
      expect(error).toMatchObject({ name: 'WebhookError', code: 'body_parsed' });
      expect((error as Error).message).toMatch(/saveRawBody/);
      expect((error as Error).message).toMatch(/express\.raw/);
      expect(seen.length).toBe(before);
    });

    it(`a parser after the verifier on the same request: ${name === 'express 5' ? 'skipped (the request is finished)' : 'body-parser 1 fails with "stream is not readable"'}`, async () => {
      const r = await postSigned('/after/signed', 'application/x-www-form-urlencoded', form);
      if (name === 'express 5') {
        expect(r.status).toBe(200);
        expect((await r.json()).body).toEqual({ phone_number: '15555550123', message: 'hello there', message_type: 'ARN' });
      } else {
        expect(r.status).toBe(500);
        expect(errors.at(-1)).toMatchObject({ type: 'stream.not.readable' });
      }
    });

    it.each(['/lost/signed', '/lost/slow-signed'])('a global express.json() without saveRawBody does not disturb bodies it does not parse (form requests on %s)', async (path) => {
      const r = await postSigned(path, 'application/x-www-form-urlencoded', form);
      expect(r.status).toBe(200);
      expect((await r.json()).body).toEqual({ phone_number: '15555550123', message: 'hello there', message_type: 'ARN' });
    });
  });
}

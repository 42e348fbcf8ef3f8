// Hostile input at a framework adapter, the same contract for every adapter (Express 4 and 5,
// Fastify, Hono): bodies that were not verified never reach the handler (a signed GET with an added
// body, a callback on GET with one), one 413 answer, and distinct events of one call (v2 voice
// events) are not collapsed into one duplicate. Real HTTP on 127.0.0.1. The packages come in as
// arguments (this folder depends on no package).
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

type Credentials = { customerId: string; apiKey: string };
type Signed = { body: string; headers: Record<string, string> };

/**
 * A server whose routes, under each prefix, are: GET /signed (signed requests verified, with a
 * replay store), GET /callback (callbacks verified), POST /small (callbacks, a 64-byte limit) and
 * POST /v2 (callbacks with a replay store). Every handler pushes the body it sees to `reached` and
 * answers 200 `{ ok: true, body }`.
 */
export interface HostileApp {
  base: string;
  /** Mounts that serve the GET routes (e.g. behind a global body parser, and without one). */
  prefixes: string[];
  /** The mount that serves the POST routes (one that reads the body itself). */
  posts: string;
  reached: unknown[];
  close(): Promise<void>;
}

export interface HostileTools {
  credentials: Credentials;
  /** signRequest({ method: 'GET', url }, credentials, { date }).headers of @x/auth */
  signGet(url: string, date?: Date): Record<string, string>;
  /** createSignedCallback(body, credentials) of @x/webhooks/testing */
  signCallback(body: string): Signed;
}

/**
 * How the server treats a body sent with GET: `refused` when the adapter sees the bytes (and
 * refuses them: 401, or 500 from a parser that kept none); `dropped` when the runtime drops them
 * before the adapter (web-standard Requests carry no GET body), so the handler sees the empty,
 * verified body.
 */
export type GetBodies = 'refused' | 'dropped';

const injected = JSON.stringify({ phone_number: '15555550999', amount: 1_000_000 });

export function hostileScenarios(name: string, start: () => Promise<HostileApp>, tools: HostileTools, getBodies: GetBodies): void {
  describe(`${name}: hostile input`, () => {
    let app: HostileApp;
    beforeAll(async () => void (app = await start()));
    afterAll(() => app.close());
    const started = () => app;
    const reachedNothingOf = () => expect(JSON.stringify(app.reached)).not.toContain('1000000');

    it('a signed GET without a body reaches the handler', async () => {
      const { base, prefixes } = started();
      for (const prefix of prefixes) {
        const r = await fetch(`${base}${prefix}/signed`, { headers: tools.signGet(`${base}${prefix}/signed`) });
        expect(r.status).toBe(200);
      }
    });

    it('a replayed signed request is refused (10002), and so is one signed 16 minutes ago (10004), with the service error body', async () => {
      const { base, prefixes, reached } = started();
      const url = `${base}${prefixes[0]}/signed`;
      const headers = tools.signGet(url);
      expect((await fetch(url, { headers })).status).toBe(200);
      const before = reached.length;
      const replay = await fetch(url, { headers });
      expect(replay.status).toBe(401);
      expect((await replay.json()).status.code).toBe(10002);
      const expired = await fetch(url, { headers: tools.signGet(url, new Date(Date.now() - 16 * 60_000)) });
      expect(expired.status).toBe(401);
      expect(await expired.json()).toMatchObject({ status: { code: 10004 }, error: 'clock_skew' });
      expect(reached.length).toBe(before);
    });

    it('a signed GET carrying an unsigned body never reaches the handler', async () => {
      const { base, prefixes, reached } = started();
      for (const prefix of prefixes) {
        const before = reached.length;
        const headers = { ...tools.signGet(`${base}${prefix}/signed`), 'content-type': 'application/json' };
        const r = await rawRequest(`${base}${prefix}/signed`, 'GET', headers, injected);
        if (getBodies === 'refused') {
          expect([401, 500]).toContain(r.status);
          expect(reached.length).toBe(before);
        } else {
          expect(r.text).not.toContain('1000000');
          if (r.status === 200) expect(JSON.parse(r.text)).toEqual({ ok: true, body: '' });
        }
      }
      reachedNothingOf();
    });

    it('a callback on GET with an unsigned body never reaches the handler', async () => {
      const { base, prefixes, reached } = started();
      for (const prefix of prefixes) {
        const before = reached.length;
        const r = await rawRequest(`${base}${prefix}/callback`, 'GET', { ...tools.signCallback('').headers }, injected);
        expect(r.status).not.toBe(200);
        expect(reached.length).toBe(before);
      }
    });

    it('413 answers like every adapter: { error: "body_too_large" }', async () => {
      const { base, posts } = started();
      const big = tools.signCallback(JSON.stringify({ pad: 'x'.repeat(200) }));
      const r = await fetch(`${base}${posts}/small`, { method: 'POST', body: big.body, headers: big.headers });
      expect(r.status).toBe(413);
      expect(await r.json()).toEqual({ error: 'body_too_large', message: 'The body is larger than 64 bytes.' });
    });

    it('two v2 voice events of one call both reach the handler (not collapsed into one duplicate)', async () => {
      const { base, posts, reached } = started();
      const before = reached.length;
      for (const event of ['incoming_call', 'dial_completed']) {
        const signed = tools.signCallback(JSON.stringify({ event, reference_id: '6a1e54ec-4a4b-4a0e-9d5c-5e2d7c3c1f00', data: { to: '+15555550100' } }));
        const r = await fetch(`${base}${posts}/v2`, { method: 'POST', body: signed.body, headers: signed.headers });
        expect(await r.json()).toMatchObject({ ok: true });
      }
      expect(reached.length).toBe(before + 2);
      reachedNothingOf();
    });
  });
}

/** A request with any method and body (fetch() refuses GET bodies). */
export function rawRequest(url: string, method: string, headers: Record<string, string>, body: string): Promise<{ status: number; text: string }> {
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

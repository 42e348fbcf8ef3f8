// At the Hono adapter: `mac` is the one HMAC option, and each middleware holds
// its own key cache (static options or a factory of the Context, as on Workers): a key is prepared
// once per middleware, the keys of a credentials lookup are held in a bounded LRU.
import { prepareMac, signRequest } from '@x/auth';
import type { CallbackPayload } from '@x/webhooks';
import { createSignedCallback } from '@x/webhooks/testing';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyCallbacks, verifySignedRequests } from '../src/index.js';
import { countingMac, customer, expectKeyPreparedOncePerCustomer } from '../../../testing/key-cache.js';
import { credentials, serveApp } from './receivers.js';

const { mac, prepared } = countingMac(prepareMac);
const payload: CallbackPayload = { reference_id: 'E'.repeat(32), sub_resource: 'sms', errors: [], status: { code: 200, description: 'Delivered to handset', updated_on: '2026-01-01T00:00:00Z' } };

let base: string;
let close: () => Promise<void>;
beforeAll(async () => {
  const app = new Hono<{ Bindings: { API_KEY: string } }>();
  app.post('/static', verifyCallbacks({ ...credentials, mac }), (c) => c.json({ id: c.get('callback').reference_id }));
  // A factory of the Context (per request, as with secrets in c.env on Workers).
  app.post('/factory', verifyCallbacks(() => ({ ...credentials, mac })), (c) => c.json({ id: c.get('callback').reference_id }));
  app.post('/signed', verifySignedRequests({ credentials: (id) => customer(Number(id.slice('customer-'.length))), mac }), (c) => c.json({ customer: c.get('customerId') }));
  ({ base, close } = await serveApp(app as unknown as Hono));
});
afterAll(() => close());

describe('@x/hono: one `mac` option, a key cache per middleware', () => {
  it.each(['/static', '/factory'])('%s: the key is prepared once with the given mac', async (path) => {
    const signed = createSignedCallback(payload, credentials);
    prepared.length = 0;
    for (let i = 0; i < 3; i++) {
      const r = await fetch(base + path, { method: 'POST', body: signed.body, headers: signed.headers });
      expect(await r.json()).toEqual({ id: payload.reference_id });
    }
    expect(prepared).toEqual([credentials.apiKey]);
  });

  it('signed requests: each customer key is prepared once, at most 64 held for a lookup of many', async () => {
    await expectKeyPreparedOncePerCustomer(`${base}/signed`, signRequest, prepared, (n) => ({ customer: `customer-${n}` }));
  });
});

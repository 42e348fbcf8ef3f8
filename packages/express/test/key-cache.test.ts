// The middleware owns its key cache: `mac` is the one HMAC option of the
// SDK, each key is prepared once per middleware, keys of a credentials lookup are held in a bounded
// LRU; the body is read once and parsed once, after verification.
import { prepareMac, signRequest } from '@x/auth';
import { DEFAULT_CUSTOMER } from '@x/emulator';
import type { CallbackPayload } from '@x/webhooks';
import { createSignedCallback } from '@x/webhooks/testing';
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyCallbacks, verifySignedRequests } from '../src/index.js';
import { countingMac, customer, expectKeyPreparedOncePerCustomer } from '../../../testing/key-cache.js';

const { mac, prepared } = countingMac(prepareMac);
const payload: CallbackPayload = { reference_id: 'C'.repeat(32), sub_resource: 'sms', errors: [], status: { code: 200, description: 'Delivered to handset', updated_on: '2026-01-01T00:00:00Z' } };

let server: Server;
let base: string;
const bodies: unknown[] = [];

beforeAll(async () => {
  const app = express();
  app.post('/cb', verifyCallbacks({ ...DEFAULT_CUSTOMER, mac }), (req, res) => void (bodies.push(req.body), res.json({ id: req.callback!.reference_id })));
  app.post('/signed', verifySignedRequests({ credentials: (id) => customer(Number(id.slice('customer-'.length))), mac }), (req, res) => void (bodies.push(req.body), res.json({ customer: req.customerId })));
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('@x/express: one `mac` option, a key cache per middleware', () => {
  it('verifyCallbacks prepares the key once with the given mac, and req.body is the verified payload', async () => {
    const signed = createSignedCallback(payload, DEFAULT_CUSTOMER);
    prepared.length = 0;
    for (let i = 0; i < 3; i++) {
      const r = await fetch(`${base}/cb`, { method: 'POST', body: signed.body, headers: signed.headers });
      expect(await r.json()).toEqual({ id: payload.reference_id });
      expect(bodies.at(-1)).toEqual(payload);
    }
    expect(prepared).toEqual([DEFAULT_CUSTOMER.apiKey]);
  });

  it('verifySignedRequests prepares each customer key once, and holds at most 64 of a lookup of many', async () => {
    await expectKeyPreparedOncePerCustomer(`${base}/signed`, signRequest, prepared, (n) => ({ customer: `customer-${n}` }), (n) => expect(bodies.at(-1)).toEqual({ n }));
  });
});

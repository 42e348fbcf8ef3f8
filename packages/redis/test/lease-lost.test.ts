// A lost lease against a real redis-server: a handler that outlives its lease while the retry is
// begun elsewhere still records its success, and handleCallback and the adapters' settleWith
// report the loss to onLeaseLost.
import { serve } from '@hono/node-server';
import { verifyCallbacks } from '@x/express';
import { xVerification } from '@x/fastify';
import { verifyCallbacks as honoCallbacks } from '@x/hono';
import { createSignedCallback } from '@x/webhooks/testing';
import { handleCallback, verifyCallback, type CallbackPayload, type LeaseLost } from '@x/webhooks';
import { settleWith } from '@x/webhooks/adapter';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { Redis } from 'ioredis';
import type { Server } from 'node:http';
import { listen } from '../../../testing/receivers.js';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createRedisReplayStore } from '../src/index.js';

const redis = new Redis({ port: inject('redisPort'), host: '127.0.0.1' });
afterAll(() => redis.quit());

const credentials = { customerId: 'AAAAAAAA-BBBB-CCCC-DDDD-EEEEEEEEEEEE', apiKey: btoa('lease test key, 32 bytes long!!!') };
let n = 0;
const delivery = () => {
  const payload: CallbackPayload = { reference_id: `1ea5e${Date.now().toString(16)}${(++n).toString(16).padStart(8, '0')}`, sub_resource: 'sms', errors: [], status: { code: 200, description: 'Delivered to handset', updated_on: '2026-01-01T00:00:00Z' } };
  return createSignedCallback(payload, credentials);
};

function setup() {
  const lost: LeaseLost[] = [];
  const onLeaseLost: (l: LeaseLost) => void = (l) => void lost.push(l);
  const options = { ...credentials, replayStore: createRedisReplayStore({ client: redis, prefix: `lease:${n}:` }), leaseMs: 50, onLeaseLost };
  return { lost, options };
}

/** Begins the copy once Redis has expired the first delivery's lease (the service's retry). */
async function takeOver(signed: ReturnType<typeof delivery>, options: ReturnType<typeof setup>['options']) {
  for (;;) {
    const copy = await verifyCallback(signed, options);
    if (copy.ok) return copy;
    expect(copy.reason).toBe('in_progress');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('a lost lease against a real Redis', () => {
  it('handleCallback reports it to onLeaseLost and records the success', async () => {
    const { lost, options } = setup();
    const signed = delivery();
    const handled = await handleCallback(signed, options, async () => {
      await takeOver(signed, options);
      return 'stored';
    });
    expect(handled).toMatchObject({ ok: true, value: 'stored' });
    expect(lost).toMatchObject([{ reason: 'lease_lost', payload: { reference_id: JSON.parse(signed.body).reference_id } }]);
    expect(await verifyCallback(signed, options)).toMatchObject({ ok: false, reason: 'duplicate' });
  });

  it('settleWith (the adapters) reports it to onLeaseLost; a held lease reports nothing', async () => {
    const { lost, options } = setup();
    const held = await verifyCallback(delivery(), options);
    if (!held.ok) throw new Error(held.reason);
    await settleWith(held, options)(true);
    expect(lost).toEqual([]);
    const signed = delivery();
    const late = await verifyCallback(signed, options);
    if (!late.ok) throw new Error(late.reason);
    await takeOver(signed, options);
    await settleWith(late, options)(true);
    expect(lost).toMatchObject([{ reason: 'lease_lost', identity: late.identity }]);
  });
});

type Options = ReturnType<typeof setup>['options'];
type Handler = (payload: CallbackPayload) => Promise<void>;
/** Each adapter's callback route on 127.0.0.1, answering 200 once `work` is done. */
const receivers: Record<string, (options: Options, work: Handler) => Promise<{ url: string; close(): Promise<void> }>> = {
  express: async (options, work) => {
    const app = express();
    app.post('/cb', verifyCallbacks(options), async (req, res) => {
      await work(req.callback!);
      res.json({ ok: true });
    });
    const { base, close } = await listen(app);
    return { url: `${base}/cb`, close };
  },
  fastify: async (options, work) => {
    const app = Fastify();
    await app.register(xVerification, { callbacks: options });
    app.post('/cb', { config: { xCallback: true } }, async (request) => {
      await work(request.callback);
      return { ok: true };
    });
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    return { url: `${base}/cb`, close: () => app.close() };
  },
  hono: async (options, work) => {
    const app = new Hono();
    app.post('/cb', honoCallbacks(options), async (c) => {
      await work(c.get('callback'));
      return c.json({ ok: true });
    });
    const { base, close } = await listen({ listen: (port, hostname, ready) => serve({ fetch: app.fetch, port, hostname }, ready) as Server });
    return { url: `${base}/cb`, close };
  },
};

describe.each(Object.keys(receivers))('%s against a real Redis: a lost lease', (framework) => {
  it('is reported to onLeaseLost after the 200, and the success is recorded', async () => {
    const { options } = setup();
    const reported = new Promise<LeaseLost>((resolve) => (options.onLeaseLost = resolve));
    const signed = delivery();
    const receiver = await receivers[framework]!(options, async () => void (await takeOver(signed, options)));
    try {
      const response = await fetch(receiver.url, { method: 'POST', body: signed.body, headers: signed.headers });
      expect(response.status).toBe(200);
      expect(await reported).toMatchObject({ reason: 'lease_lost', payload: { reference_id: JSON.parse(signed.body).reference_id } });
      expect(await verifyCallback(signed, options)).toMatchObject({ ok: false, reason: 'duplicate' });
    } finally {
      await receiver.close();
    }
  });
});

// The application: what you deploy. Two routes of its own (start and check a verification) and the
// callback route, where @x/hono lets only correctly signed callbacks through, each processed once.
import { createMemoryReplayStore } from '@x/auth';
import type { Client } from '@x/client';
import { verifyCallbacks } from '@x/hono';
import { isVerifyCallback, type CallbackStatus } from '@x/webhooks';
import { Hono } from 'hono';

export interface Delivery {
  status: CallbackStatus | undefined;
  codeState: string | undefined;
  header: 'authorization' | 'x-ts-authorization';
}

export function createApp({ client, credentials }: { client: Client; credentials: { customerId: string; apiKey: string } }): Hono {
  const deliveries = new Map<string, Delivery>(); // reference id -> the last delivery report: your database in real life
  const app = new Hono();

  // A memory replay store is for one process; several processes share createRedisReplayStore() (@x/redis).
  app.post('/callbacks', verifyCallbacks({ ...credentials, replayStore: createMemoryReplayStore() }), (c) => {
    const update = c.get('callback'); // verified and typed
    deliveries.set(update.reference_id, { status: update.status, codeState: isVerifyCallback(update) ? update.verify.code_state : undefined, header: c.get('callbackHeader') });
    return c.json({ ok: true }); // 2xx once saved; throw and the service's retry is processed
  });

  app.post('/verifications', async (c) => {
    const { phoneNumber } = await c.req.json<{ phoneNumber: string }>();
    const { data } = await client.verify.sms({ phoneNumber, template: 'Your Acme code is $$CODE$$' });
    return c.json({ referenceId: data.reference_id }, 201);
  });

  app.post('/verifications/:id/check', async (c) => {
    const { code } = await c.req.json<{ code: string }>();
    const { data } = await client.verify.check(c.req.param('id'), code);
    return c.json({ codeState: data.verify.code_state });
  });

  app.get('/verifications/:id', (c) => c.json({ delivery: deliveries.get(c.req.param('id')) ?? null }));

  return app;
}

// The Worker: what you deploy. Two routes of its own (start and check a verification) and the
// callback route, where @x/hono lets only correctly signed callbacks through. Credentials and the
// service's URL are the Worker's bindings (secrets: `wrangler secret put X_API_KEY`), read per request.
import { createMemoryReplayStore } from '@x/auth';
import { createClient, fromEnv } from '@x/client';
import { verifyCallbacks } from '@x/hono';
import { isVerifyCallback, type CallbackStatus } from '@x/webhooks';
import { Hono } from 'hono';

type Env = { Bindings: { X_CUSTOMER_ID: string; X_API_KEY: string; X_BASE_URL?: string } };

export interface Delivery {
  status: CallbackStatus | undefined;
  codeState: string | undefined;
  header: 'authorization' | 'x-ts-authorization';
}

// Both live in one isolate, and a Worker runs in many: in production keep the delivery reports in
// KV, D1 or a Durable Object, and de-duplicate with a store all isolates share (see @x/hono's README).
const deliveries = new Map<string, Delivery>();
const replayStore = createMemoryReplayStore();

const app = new Hono<Env>();

app.post(
  '/callbacks',
  verifyCallbacks<Env>((c) => ({ customerId: c.env.X_CUSTOMER_ID, apiKey: c.env.X_API_KEY, replayStore })),
  (c) => {
    const update = c.get('callback'); // verified and typed
    deliveries.set(update.reference_id, { status: update.status, codeState: isVerifyCallback(update) ? update.verify.code_state : undefined, header: c.get('callbackHeader') });
    return c.json({ ok: true }); // 2xx once saved; throw and the service's retry is processed
  },
);

app.post('/verifications', async (c) => {
  const { phoneNumber } = await c.req.json<{ phoneNumber: string }>();
  const { data } = await createClient(fromEnv(c.env)).verify.sms({ phoneNumber, template: 'Your Acme code is $$CODE$$' });
  return c.json({ referenceId: data.reference_id }, 201);
});

app.post('/verifications/:id/check', async (c) => {
  const { code } = await c.req.json<{ code: string }>();
  const { data } = await createClient(fromEnv(c.env)).verify.check(c.req.param('id'), code);
  return c.json({ codeState: data.verify.code_state });
});

app.get('/verifications/:id', (c) => c.json({ delivery: deliveries.get(c.req.param('id')) ?? null }));

export default app;

// The Hono suite, run in Node, Deno, Bun and workerd (bundled by testing/runtimes/harness.mjs from the BUILT packages):
// a Hono app with @x/hono (`createApp`), and the checks (`check`) that drive it over real HTTP, with
// the emulator (in-process, portable core) as the callback sender. Returns [name, ok, detail] rows.
import { createMemoryReplayStore, signRequest } from '@x/auth';
import { createClient } from '@x/client';
import { createEmulator, DEFAULT_CUSTOMER } from '@x/emulator';
import { verifyCallbacks, verifySignedRequests } from '@x/hono';
import { createSignedCallback } from '@x/webhooks/testing';
import { Hono } from 'hono';

export const credentials = { customerId: DEFAULT_CUSTOMER.customerId, apiKey: DEFAULT_CUSTOMER.apiKey };

/**
 * The app under test. Credentials come from the Context (Workers' bindings) when `fromEnv`, else
 * from the emulator's default customer. The handler's behaviour is scripted through /control:
 * the next N callbacks answer 500, throw, or wait for a release.
 */
export function createApp({ fromEnv = false } = {}) {
  const replayStore = createMemoryReplayStore();
  const options = (c) => ({ ...(fromEnv ? { customerId: c.env.CUSTOMER_ID, apiKey: c.env.API_KEY } : credentials), replayStore, limit: 4096 });
  const runs = new Map();
  const script = [];
  let released = false;
  const app = new Hono();
  app.post('/control/:action', (c) => {
    const action = c.req.param('action');
    if (action === 'release') released = true;
    else script.push(action);
    return c.json({ ok: true });
  });
  app.get('/runs/:ref', (c) => c.json({ runs: runs.get(c.req.param('ref')) ?? 0 }));
  app.post('/cb', verifyCallbacks(options), async (c) => {
    const payload = c.get('callback');
    runs.set(payload.reference_id, (runs.get(payload.reference_id) ?? 0) + 1);
    const action = script.shift();
    if (action === 'fail') return c.json({ error: 'database down' }, 500);
    if (action === 'throw') throw new Error('database down');
    if (action === 'block') {
      // Polls (a promise resolved by another request would cross request contexts in workerd).
      released = false;
      for (let i = 0; i < 500 && !released; i++) await sleep(10);
    }
    // The body is still readable through Hono after verification.
    const again = await c.req.json();
    return c.json({ ok: again.reference_id === payload.reference_id, via: c.get('callbackHeader') });
  });
  // A validator-like middleware that read the body through Hono before the verifier.
  app.post('/read-first', async (c, next) => {
    await c.req.json().catch(() => undefined);
    await next();
  }, verifyCallbacks(options), (c) => c.json({ ok: true, ref: c.get('callback').reference_id }));
  app.post('/v1/messaging', verifySignedRequests((c) => ({ credentials: (id) => (id === options(c).customerId ? options(c) : undefined), replayStore })), async (c) => {
    const form = await c.req.parseBody();
    return c.json({ customer: c.get('customerId'), to: form.phone_number });
  });
  // Swallows errors with a 200: the delivery must be released all the same.
  app.onError((_error, c) => c.json({ swallowed: true }, 200));
  return app;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export const names = [
  'emulator callback verified, c.get("callback") set, body still readable',
  'a handler answering 500: the emulator retries, processed once, then 200 duplicate',
  'a thrown error that app.onError answers 200 releases the delivery (c.error)',
  'a copy while the first is in progress: 503 + Retry-After, handler once',
  '401 tampered / unsigned, 413 over the limit (the shared answers)',
  'a body read through Hono before the verifier is verified from its cache',
  'signed request: accepted with c.get("customerId"), tampered 401',
];

/** The checks, against the app served at `base`. */
export async function check(base) {
  const rows = [];
  const row = (name, ok, detail = '') => rows.push([name, Boolean(ok), detail]);
  const attempt = async (name, fn) => {
    try {
      await fn();
    } catch (error) {
      row(name, false, String(error?.stack ?? error).slice(0, 300));
    }
  };
  const post = (path, signed) => fetch(`${base}${path}`, { method: 'POST', body: signed.body, headers: signed.headers });
  const control = async (action) => (await fetch(`${base}/control/${action}`, { method: 'POST' })).arrayBuffer();
  const runsOf = async (ref) => (await (await fetch(`${base}/runs/${ref}`)).json()).runs;
  let n = 0;
  const payload = () => ({
    reference_id: `${Date.now().toString(16)}${(++n).toString(16)}${Math.random().toString(16).slice(2)}`.slice(0, 32).padEnd(32, '0').toUpperCase(),
    sub_resource: 'sms',
    errors: [],
    status: { code: 200, description: 'Delivered to handset', updated_on: '2026-01-01T00:00:00.000000Z' },
  });

  // The emulator sends the callbacks, over HTTP, with fast retries.
  const emulator = createEmulator({ deliveryDelayMs: 0, callbacks: { retryDelaysMs: [20, 20] }, customers: [{ ...credentials, callbackUrl: `${base}/cb` }] });
  try {
    const client = createClient({ ...credentials, baseUrl: 'http://emulator.local', fetch: emulator.fetch });
    const sendSms = async () => (await client.messaging.send({ phoneNumber: '15555550700', message: 'x', messageType: 'ARN' })).data.reference_id;

    await attempt('emulator callback verified, c.get("callback") set, body still readable', async () => {
      const ref = await sendSms();
      await emulator.idle();
      const attempts = emulator.callbacks.attempts.filter((a) => a.referenceId === ref);
      row('emulator callback verified, c.get("callback") set, body still readable', attempts.length === 1 && attempts[0].status === 200 && (await runsOf(ref)) === 1, JSON.stringify(attempts.map((a) => a.status)));
    });

    await attempt('a handler answering 500: the emulator retries, processed once, then 200 duplicate', async () => {
      await control('fail');
      const ref = await sendSms();
      await emulator.idle();
      const attempts = emulator.callbacks.attempts.filter((a) => a.referenceId === ref);
      const late = await post('/cb', { body: attempts[0].body, headers: attempts[0].headers });
      const lateBody = await late.json();
      row(
        'a handler answering 500: the emulator retries, processed once, then 200 duplicate',
        JSON.stringify(attempts.map((a) => a.status)) === '[500,200]' && late.status === 200 && lateBody.duplicate === true && (await runsOf(ref)) === 2,
        `${JSON.stringify(attempts.map((a) => a.status))} late ${late.status}`,
      );
    });
  } finally {
    emulator.close();
  }

  await attempt('a thrown error that app.onError answers 200 releases the delivery (c.error)', async () => {
    const p = payload();
    const signed = createSignedCallback(p, credentials);
    await control('throw');
    const first = await (await post('/cb', signed)).json();
    const retry = await (await post('/cb', signed)).json();
    const late = await (await post('/cb', signed)).json();
    row('a thrown error that app.onError answers 200 releases the delivery (c.error)', first.swallowed === true && retry.ok === true && late.duplicate === true && (await runsOf(p.reference_id)) === 2, JSON.stringify([first, retry, late]));
  });

  await attempt('a copy while the first is in progress: 503 + Retry-After, handler once', async () => {
    const p = payload();
    const signed = createSignedCallback(p, credentials);
    await control('block');
    const first = post('/cb', signed);
    for (let i = 0; i < 100 && (await runsOf(p.reference_id)) === 0; i++) await sleep(20);
    const copy = await post('/cb', signed);
    const copyBody = await copy.json();
    await control('release');
    const done = await first;
    await done.arrayBuffer();
    row('a copy while the first is in progress: 503 + Retry-After, handler once', copy.status === 503 && copy.headers.get('retry-after') === '30' && copyBody.error === 'in_progress' && done.status === 200 && (await runsOf(p.reference_id)) === 1, `copy ${copy.status}, first ${done.status}`);
  });

  await attempt('401 tampered / unsigned, 413 over the limit (the shared answers)', async () => {
    const signed = createSignedCallback(payload(), credentials);
    const tampered = await post('/cb', { ...signed, body: signed.body.replace('Delivered', 'Dropped') });
    const tamperedBody = await tampered.json();
    const unsigned = await post('/cb', { body: JSON.stringify(payload()), headers: { 'content-type': 'application/json' } });
    await unsigned.arrayBuffer();
    const big = await post('/cb', createSignedCallback({ ...payload(), external_id: 'x'.repeat(5000) }, credentials));
    const bigBody = await big.json();
    row('401 tampered / unsigned, 413 over the limit (the shared answers)', tampered.status === 401 && tamperedBody.error === 'signature_mismatch' && unsigned.status === 401 && big.status === 413 && bigBody.error === 'body_too_large', `${tampered.status} ${unsigned.status} ${big.status}`);
  });

  await attempt('a body read through Hono before the verifier is verified from its cache', async () => {
    const p = payload();
    const ok = await (await post('/read-first', createSignedCallback(p, credentials))).json();
    const signed = createSignedCallback(payload(), credentials);
    const tampered = await post('/read-first', { ...signed, body: signed.body.replace('Delivered', 'Dropped') });
    await tampered.arrayBuffer();
    row('a body read through Hono before the verifier is verified from its cache', ok.ref === p.reference_id && tampered.status === 401, `${JSON.stringify(ok)} ${tampered.status}`);
  });

  await attempt('signed request: accepted with c.get("customerId"), tampered 401', async () => {
    const url = `${base}/v1/messaging`;
    const body = 'phone_number=15555550701&message=x&message_type=ARN';
    const { headers } = signRequest({ method: 'POST', url, contentType: 'application/x-www-form-urlencoded', body }, credentials);
    const accepted = await fetch(url, { method: 'POST', headers, body });
    const acceptedBody = await accepted.json();
    const again = signRequest({ method: 'POST', url, contentType: 'application/x-www-form-urlencoded', body }, credentials);
    const tampered = await fetch(url, { method: 'POST', headers: again.headers, body: body.replace('x', 'y') });
    await tampered.arrayBuffer();
    row('signed request: accepted with c.get("customerId"), tampered 401', accepted.status === 200 && acceptedBody.customer === credentials.customerId && acceptedBody.to === '15555550701' && tampered.status === 401, `${accepted.status} ${tampered.status}`);
  });
  return rows;
}

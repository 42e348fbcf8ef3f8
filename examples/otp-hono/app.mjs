// The application: what you deploy. Three routes of sign-in with a phone number; @x/otp decides
// (guard, cooldowns, attempts) and answers typed results, which become HTTP answers here. The app
// is the same on every runtime Hono runs on; only how it learns the caller's IP differs.
import { Hono } from 'hono';
import { createOtp, otpTemplate } from '@x/otp';

// Each refusal as the HTTP status that says what to do (the @x/otp README's table).
const HTTP_STATUS = { invalid_number: 422, invalid_ip: 400, country_denied: 422, risk: 422, send_failed: 502, store_unavailable: 503 };
const statusOf = (reason) => HTTP_STATUS[reason] ?? 429; // limits, pumping, circuit, cooldowns: wait retryAfterMs

/**
 * @param {object} options
 * @param {import('@x/client').Client} options.client  the service's client
 * @param {import('@x/otp').OtpStore} [options.store]  createRedisStore() (@x/otp/redis) when several processes serve the app
 * @param {(c: import('hono').Context) => string | undefined} [options.ipOf]  the caller's IP (on Node: getConnInfo of @hono/node-server/conninfo)
 */
export function createApp({ client, store, ipOf = () => undefined }) {
  const otp = createOtp({
    client,
    store,
    template: (locale) => otpTemplate({ locale, brand: 'Acme', webOtpDomain: 'acme.example' }),
    onEvent: (event) => console.log(`otp event: ${event.type}`),
  });
  const app = new Hono();
  const bodyOf = async (c) => {
    const body = await c.req.json().catch(() => undefined);
    return body && typeof body === 'object' ? body : {};
  };

  // A refusal is an answer, not an error: its status, the reason and when to try again.
  const answer = (c, result) => {
    if (result.status === 'sent') return c.json({ flowId: result.id, channel: result.channel, resendInMs: result.resendInMs }, 201);
    if (result.status === 'expired') return c.json({ status: 'expired' }, 410);
    return c.json({ reason: result.reason, retryAfterMs: result.retryAfterMs }, statusOf(result.reason), { 'retry-after': String(Math.ceil(result.retryAfterMs / 1000)) });
  };

  app.post('/otp/start', async (c) => {
    const { phoneNumber, locale } = await bodyOf(c);
    // The locale as the browser sends it: one the flow cannot read falls back to the service's default.
    return answer(c, await otp.start({ phoneNumber: String(phoneNumber ?? ''), ip: ipOf(c), locale: typeof locale === 'string' ? locale : undefined }));
  });
  app.post('/otp/:id/resend', async (c) => answer(c, await otp.resend(c.req.param('id'), { channel: (await bodyOf(c)).channel === 'call' ? 'call' : undefined })));
  app.post('/otp/:id/check', async (c) => {
    const result = await otp.check(c.req.param('id'), String((await bodyOf(c)).code ?? ''));
    if (result.status === 'valid') return c.json({ signedIn: result.phoneNumber }); // start the session here
    if (result.status === 'invalid') return c.json(result, 400);
    if (result.status === 'refused') return c.json({ reason: result.reason }, statusOf(result.reason));
    return c.json(result, 410); // expired or locked: start again
  });
  return app;
}

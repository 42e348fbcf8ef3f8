// The application: what you deploy. Three routes of sign-in with a phone number; @x/otp decides
// (guard, cooldowns, attempts) and answers typed results, which become HTTP answers here. The app
// is the same on every runtime Hono runs on; only how it learns the caller's IP differs.
import { Hono } from 'hono';
import { createOtp, otpTemplate } from '@x/otp';

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

  // A refusal is an answer, not an error: 429 with the reason and when to try again.
  const answer = (c, result) => {
    if (result.status === 'sent') return c.json({ flowId: result.id, channel: result.channel, resendInMs: result.resendInMs }, 201);
    if (result.status === 'expired') return c.json({ status: 'expired' }, 410);
    return c.json({ reason: result.reason, retryAfterMs: result.retryAfterMs }, 429, { 'retry-after': String(Math.ceil(result.retryAfterMs / 1000)) });
  };

  app.post('/otp/start', async (c) => {
    const { phoneNumber, locale } = await bodyOf(c);
    // A locale that is not xx-XX would be misuse of start (it throws): the user's input is checked here.
    return answer(c, await otp.start({ phoneNumber: String(phoneNumber ?? ''), ip: ipOf(c), locale: /^[a-z]{2}-[A-Z]{2}$/.test(locale) ? locale : undefined }));
  });
  app.post('/otp/:id/resend', async (c) => answer(c, await otp.resend(c.req.param('id'), { channel: (await bodyOf(c)).channel === 'call' ? 'call' : undefined })));
  app.post('/otp/:id/check', async (c) => {
    const result = await otp.check(c.req.param('id'), String((await bodyOf(c)).code ?? ''));
    if (result.status === 'valid') return c.json({ signedIn: result.phoneNumber }); // start the session here
    if (result.status === 'invalid') return c.json(result, 400);
    if (result.status === 'refused') return c.json({ reason: result.reason }, 503);
    return c.json(result, 410); // expired or locked: start again
  });
  return app;
}

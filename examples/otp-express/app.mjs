// The application: what you deploy. Three routes of sign-in with a phone number; @x/otp decides
// (guard, cooldowns, attempts) and answers typed results, which become HTTP answers here.
import express from 'express';
import { createOtp, otpTemplate } from '@x/otp';

// Each refusal as the HTTP status that says what to do (the @x/otp README's table).
const HTTP_STATUS = { invalid_number: 422, invalid_ip: 400, country_denied: 422, risk: 422, send_failed: 502, store_unavailable: 503 };
const statusOf = (reason) => HTTP_STATUS[reason] ?? 429; // limits, pumping, circuit, cooldowns: wait retryAfterMs

/**
 * @param {object} options
 * @param {import('@x/client').Client} options.client  the service's client
 * @param {import('@x/otp').OtpStore} [options.store]  createRedisStore() (@x/otp/redis) when several processes serve the app
 */
export function createApp({ client, store }) {
  const otp = createOtp({
    client,
    store,
    template: (locale) => otpTemplate({ locale, brand: 'Acme', webOtpDomain: 'acme.example' }),
    onEvent: (event) => console.log(`otp event: ${event.type}`),
  });
  const app = express();
  app.use(express.json());

  // A refusal is an answer, not an error: its status, the reason and when to try again.
  const sendAnswer = (res, result) => {
    if (result.status === 'sent') return res.status(201).json({ flowId: result.id, channel: result.channel, resendInMs: result.resendInMs });
    if (result.status === 'expired') return res.status(410).json({ status: 'expired' });
    res.set('retry-after', String(Math.ceil(result.retryAfterMs / 1000)));
    return res.status(statusOf(result.reason)).json({ reason: result.reason, retryAfterMs: result.retryAfterMs });
  };

  app.post('/otp/start', async (req, res) => {
    const { phoneNumber, locale } = req.body ?? {};
    // The locale as the browser sends it: one the flow cannot read falls back to the service's default.
    return sendAnswer(res, await otp.start({ phoneNumber: String(phoneNumber ?? ''), ip: req.ip, locale: typeof locale === 'string' ? locale : undefined }));
  });
  app.post('/otp/:id/resend', async (req, res) => sendAnswer(res, await otp.resend(req.params.id, { channel: req.body?.channel === 'call' ? 'call' : undefined })));
  app.post('/otp/:id/check', async (req, res) => {
    const result = await otp.check(req.params.id, String(req.body?.code ?? ''));
    if (result.status === 'valid') return res.json({ signedIn: result.phoneNumber }); // start the session here
    if (result.status === 'invalid') return res.status(400).json(result);
    if (result.status === 'refused') return res.status(statusOf(result.reason)).json({ reason: result.reason });
    return res.status(410).json(result); // expired or locked: start again
  });
  return app;
}

// The application: what you deploy. Three routes of sign-in with a phone number; @x/otp decides
// (guard, cooldowns, attempts) and answers typed results, which become HTTP answers here.
import Fastify from 'fastify';
import { createOtp, otpTemplate } from '@x/otp';

// Each refusal as the HTTP status that says what to do (the @x/otp README's table).
const HTTP_STATUS = { invalid_number: 422, invalid_ip: 400, country_denied: 422, risk: 422, send_failed: 502, store_unavailable: 503 };
const statusOf = (reason) => HTTP_STATUS[reason] ?? 429; // limits, pumping, circuit, cooldowns: wait retryAfterMs

/**
 * @param {object} options
 * @param {import('@x/client').Client} options.client  the service's client
 * @param {import('@x/otp').OtpStore} [options.store]  createRedisStore() (@x/otp/redis) when several processes serve the app
 * @param {import('fastify').FastifyServerOptions} [options.fastify]  Fastify's own options
 */
export function createApp({ client, store, fastify = {} }) {
  const otp = createOtp({
    client,
    store,
    template: (locale) => otpTemplate({ locale, brand: 'Acme', webOtpDomain: 'acme.example' }),
    onEvent: (event) => console.log(`otp event: ${event.type}`),
  });
  const app = Fastify(fastify);
  const bodyOf = (request) => (request.body && typeof request.body === 'object' ? request.body : {});

  // A refusal is an answer, not an error: its status, the reason and when to try again.
  const answer = (reply, result) => {
    if (result.status === 'sent') return reply.code(201).send({ flowId: result.id, channel: result.channel, resendInMs: result.resendInMs });
    if (result.status === 'expired') return reply.code(410).send({ status: 'expired' });
    return reply.code(statusOf(result.reason)).header('retry-after', String(Math.ceil(result.retryAfterMs / 1000))).send({ reason: result.reason, retryAfterMs: result.retryAfterMs });
  };

  app.post('/otp/start', async (request, reply) => {
    const { phoneNumber, locale } = bodyOf(request);
    // The locale as the browser sends it: one the flow cannot read falls back to the service's default.
    return answer(reply, await otp.start({ phoneNumber: String(phoneNumber ?? ''), ip: request.ip, locale: typeof locale === 'string' ? locale : undefined }));
  });
  app.post('/otp/:id/resend', async (request, reply) => answer(reply, await otp.resend(request.params.id, { channel: bodyOf(request).channel === 'call' ? 'call' : undefined })));
  app.post('/otp/:id/check', async (request, reply) => {
    const result = await otp.check(request.params.id, String(bodyOf(request).code ?? ''));
    if (result.status === 'valid') return { signedIn: result.phoneNumber }; // start the session here
    if (result.status === 'invalid') return reply.code(400).send(result);
    if (result.status === 'refused') return reply.code(statusOf(result.reason)).send({ reason: result.reason });
    return reply.code(410).send(result); // expired or locked: start again
  });
  return app;
}

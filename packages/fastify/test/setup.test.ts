// A route that opts in without the plugin options it needs is refused when the app starts, with
// a typed error that says what to do (not a 500 at the first request).
import { XError } from '@x/auth';
import { DEFAULT_CUSTOMER } from '@x/emulator';
import { WebhookError, type CallbackPayload } from '@x/webhooks';
import { createSignedCallback } from '@x/webhooks/testing';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { xVerification } from '../src/index.js';

const failure = (promise: PromiseLike<unknown>) => Promise.resolve(promise).then(() => expect.fail('expected a failure'), (e: unknown) => e);
const payload: CallbackPayload = { reference_id: 'A'.repeat(32), sub_resource: 'sms', errors: [], status: { code: 200, description: 'Delivered to handset', updated_on: '2026-01-01T00:00:00Z' } };

describe('@x/fastify: misconfiguration is a typed error at start-up', () => {
  const thrown = (declare: () => unknown) => {
    try {
      declare();
    } catch (error) {
      return error;
    }
    return expect.fail('expected the route declaration to throw');
  };

  it('a route with config.xCallback and no callbacks options: declaring it throws WebhookError missing_options', async () => {
    const app = Fastify();
    await app.register(xVerification, { signedRequests: { credentials: () => undefined } });
    const error = thrown(() => app.post('/callbacks', { config: { xCallback: true } }, async () => 'ok'));
    expect(error).toBeInstanceOf(WebhookError);
    expect(error).toBeInstanceOf(XError);
    expect((error as WebhookError).code).toBe('missing_options');
    expect((error as Error).message).toMatch(/callbacks: \{ customerId, apiKey/);
    expect((error as Error).message).toContain('/callbacks');
    await app.close();
  });

  it('a route with config.xSignedRequest and no signedRequests options: the same', async () => {
    const app = Fastify();
    await app.register(xVerification, { callbacks: DEFAULT_CUSTOMER });
    const error = thrown(() => app.post('/v1/messaging', { config: { xSignedRequest: true } }, async () => 'ok'));
    expect((error as WebhookError).code).toBe('missing_options');
    expect((error as Error).message).toMatch(/signedRequests: \{ credentials/);
    await app.close();
  });

  it('callbackRoutes listed without callbacks options: register fails the same way', async () => {
    const app = Fastify();
    const error = await failure(app.register(xVerification, { callbackRoutes: ['/cb'] }));
    expect((error as WebhookError).code).toBe('missing_options');
    await app.close();
  });

  it('a route registered before the plugin is still refused, at its first request, with the same typed error (500)', async () => {
    const app = Fastify();
    const seen: unknown[] = [];
    app.setErrorHandler((error, _request, reply) => {
      seen.push(error);
      return reply.code(500).send({ error: (error as { code?: string }).code });
    });
    app.post('/early', { config: { xCallback: true } }, async () => 'ok');
    await app.register(xVerification, {});
    const signed = createSignedCallback(payload, DEFAULT_CUSTOMER);
    const answer = await app.inject({ method: 'POST', url: '/early', payload: signed.body, headers: signed.headers });
    expect(answer.statusCode).toBe(500);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBeInstanceOf(WebhookError);
    expect((seen[0] as WebhookError).code).toBe('missing_options');
    await app.close();
  });
});

// The application: what you deploy. Two routes of its own (start and check a verification) and the
// callback route, where @x/fastify lets only correctly signed callbacks through, each processed once.
import { createMemoryReplayStore } from '@x/auth';
import { xVerification } from '@x/fastify';
import Fastify from 'fastify';

/**
 * @param {object} options
 * @param {import('@x/client').Client} options.client  the service's client
 * @param {{ customerId: string, apiKey: string }} options.credentials  verify the callbacks with these
 * @param {import('fastify').FastifyServerOptions} [options.fastify]  Fastify's own options
 */
export async function createApp({ client, credentials, fastify = {} }) {
  const deliveries = new Map(); // reference id -> the last delivery report: your database in real life
  const app = Fastify(fastify);

  // The callback route opts in; other routes keep Fastify's body parsing as usual.
  // A memory replay store is for one process; several processes share createRedisReplayStore() (@x/redis).
  await app.register(xVerification, { callbacks: { ...credentials, replayStore: createMemoryReplayStore() }, callbackRoutes: ['/callbacks'] });

  app.post('/callbacks', async (request) => {
    const update = request.callback; // verified and typed
    deliveries.set(update.reference_id, { status: update.status, codeState: update.verify?.code_state, header: request.callbackHeader });
    return { ok: true }; // 2xx once saved; throw and the service's retry is processed
  });

  app.post('/verifications', async (request, reply) => {
    const { data } = await client.verify.sms({ phoneNumber: request.body.phoneNumber, template: 'Your Acme code is $$CODE$$' });
    return reply.code(201).send({ referenceId: data.reference_id });
  });

  app.post('/verifications/:id/check', async (request) => {
    const { data } = await client.verify.check(request.params.id, request.body.code);
    return { codeState: data.verify.code_state };
  });

  app.get('/verifications/:id', async (request) => ({ delivery: deliveries.get(request.params.id) ?? null }));

  return app;
}

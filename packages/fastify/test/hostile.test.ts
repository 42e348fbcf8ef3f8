// The shared hostile-input contract (testing/hostile.ts) at the Fastify adapter.
import { createMemoryReplayStore, signRequest } from '@x/auth';
import { createSignedCallback } from '@x/webhooks/testing';
import Fastify from 'fastify';
import { hostileScenarios, type HostileApp } from '../../../testing/hostile.js';
import { xVerification } from '../src/index.js';
import { credentials } from './receivers.js';

const tools = { credentials, signGet: (url: string, date?: Date) => signRequest({ method: 'GET', url }, credentials, date ? { date } : {}).headers, signCallback: (body: string) => createSignedCallback(body, credentials) };

async function start(): Promise<HostileApp> {
  const reached: unknown[] = [];
  const app = Fastify();
  await app.register(xVerification, {
    callbacks: { ...credentials, replayStore: createMemoryReplayStore() },
    signedRequests: { credentials: (id) => (id === credentials.customerId ? credentials : undefined), replayStore: createMemoryReplayStore() },
  });
  const handler = async (request: { body: unknown }) => {
    reached.push(request.body);
    return { ok: true, body: request.body ?? null };
  };
  app.get('/signed', { config: { xSignedRequest: true } }, handler);
  app.get('/callback', { config: { xCallback: true } }, handler);
  app.post('/small', { config: { xCallback: true }, bodyLimit: 64 }, handler);
  app.post('/v2', { config: { xCallback: true } }, handler);
  return { base: await app.listen({ port: 0, host: '127.0.0.1' }), prefixes: [''], posts: '', reached, close: () => app.close() };
}

hostileScenarios('fastify', start, tools, 'refused');

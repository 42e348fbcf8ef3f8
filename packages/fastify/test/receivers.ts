// Fastify receivers for the shared exactly-once scenarios (testing/exactly-once.ts).
import { createMemoryReplayStore, type DeliveryStore } from '@x/auth';
import { createClient } from '@x/client';
import { DEFAULT_CUSTOMER } from '@x/emulator';
import { startEmulator } from '@x/emulator/node';
import { createSignedCallback } from '@x/webhooks';
import Fastify from 'fastify';
import { toolsFrom, type StartReceiver } from '../../../testing/exactly-once.js';
import { xVerification } from '../src/index.js';

export const credentials = DEFAULT_CUSTOMER;
export const tools = toolsFrom({ credentials, createSignedCallback, createClient, startEmulator });

/** A callback route: the plugin, then the scripted handler (a sync throw is Fastify's to catch). */
export const fastifyReceiver: StartReceiver = async (options, behave) => {
  const app = Fastify();
  await app.register(xVerification, { callbacks: { ...credentials, replayStore: options.replayStore as DeliveryStore, leaseMs: options.leaseMs } });
  app.post('/cb', { config: { xCallback: true } }, (request, reply) => {
    const answer = (action: string) => {
      if (action === 'ok') return reply.send({ ok: true });
      if (action === 'fail') return reply.code(500).send({ error: 'database down' });
      return reply.send(new Error('the handler failed'));
    };
    const action = behave(request.callback!);
    if (typeof action === 'string') return answer(action);
    return action.then(answer, (error: Error) => reply.send(error));
  });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url: `${base}/cb`, close: () => app.close() };
};

export const memoryStore = () => {
  let now = Date.now();
  const store = createMemoryReplayStore({ now: () => now });
  return { store, leaseMs: 30_000, outlive: (ms: number) => void (now += ms + 1) };
};

import { createMemoryReplayStore } from '@x/auth';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { exactlyOnceScenarios } from '../../../testing/exactly-once.js';
import { xVerification } from '../src/index.js';
import { credentials, fastifyReceiver, memoryStore, tools } from './receivers.js';

exactlyOnceScenarios('fastify, memory store', fastifyReceiver, memoryStore, tools);

describe('fastify: a thrown handler error counts as a failure even when an error handler answers 200', () => {
  it('the next delivery is processed', async () => {
    const app = Fastify();
    await app.register(xVerification, { callbacks: { ...credentials, replayStore: createMemoryReplayStore() } });
    app.setErrorHandler((_error, _request, reply) => reply.code(200).send({ swallowed: true }));
    let runs = 0;
    app.post('/cb', { config: { xCallback: true } }, async () => {
      if (++runs === 1) throw new Error('database down');
      return { ok: true };
    });
    await app.ready();
    const signed = tools.sign({ reference_id: 'F'.repeat(32), sub_resource: 'sms', errors: [], status: { code: 200, description: 'x', updated_on: '2026-01-01T00:00:00Z' } } as never);
    const inject = () => app.inject({ method: 'POST', url: '/cb', headers: signed.headers, payload: signed.body });
    expect((await inject()).json()).toEqual({ swallowed: true });
    expect((await inject()).json()).toEqual({ ok: true });
    expect((await inject()).json()).toEqual({ duplicate: true });
    expect(runs).toBe(2);
    await app.close();
  });
});

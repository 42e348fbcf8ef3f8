// Exactly-once callbacks on a real redis-server: the shared scenarios against the BUILT Express 4,
// Express 5, Fastify and Hono adapters (each scenario with its own ioredis connection), and two real
// receiver processes sharing one Redis.
import { createClient } from '@x/client';
import { DEFAULT_CUSTOMER } from '@x/emulator';
import { startEmulator } from '@x/emulator/node';
import { verifyCallbacks } from '@x/express';
import { xVerification } from '@x/fastify';
import { verifyCallbacks as honoCallbacks } from '@x/hono';
import { serve } from '@hono/node-server';
import { callbackIdentity } from '@x/webhooks';
import { createSignedCallback } from '@x/webhooks/testing';
import express5 from 'express';
import express4 from 'express4';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { Redis } from 'ioredis';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { exactlyOnceScenarios, freshPayload, toolsFrom } from '../../../testing/exactly-once.js';
import { expressReceiver, fastifyReceiver, honoReceiver } from '../../../testing/receivers.js';
import { createRedisReplayStore } from '../src/index.js';

const port = inject('redisPort');
const credentials = DEFAULT_CUSTOMER;
const connections: Redis[] = [];
const connection = () => {
  const redis = new Redis({ port, host: '127.0.0.1' });
  connections.push(redis);
  return redis;
};
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await Promise.all(connections.map((c) => c.quit().catch(() => c.disconnect())));
});
const unique = () => `eo-${Math.random().toString(36).slice(2)}:`;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

const tools = toolsFrom({ credentials, createSignedCallback, createClient, startEmulator });
// A short lease for the "process died" scenario (the wait is real time on Redis), long enough
// that the copy sent right after the first delivery still finds it in progress on a busy machine.
const redisStore = () => ({ store: createRedisReplayStore({ client: connection(), prefix: unique() }), leaseMs: 2000, outlive: (ms: number) => sleep(ms) });

exactlyOnceScenarios('express 5, Redis', expressReceiver(express5, verifyCallbacks, credentials, true), redisStore, tools);
exactlyOnceScenarios('express 4, Redis', expressReceiver(express4, verifyCallbacks, credentials, false), redisStore, tools);
exactlyOnceScenarios('fastify, Redis', fastifyReceiver(Fastify, xVerification, credentials), redisStore, tools);
exactlyOnceScenarios('hono, Redis', honoReceiver(Hono, serve, honoCallbacks, credentials), redisStore, tools);

type Framework = 'express' | 'fastify' | 'hono';
/** Starts a receiver process (test/fixtures/receiver.mjs); resolves its callback URL. */
async function startProcess(framework: Framework, prefix: string, leaseMs: number) {
  const child = spawn(process.execPath, [fileURLToPath(new URL('./fixtures/receiver.mjs', import.meta.url))], {
    env: { ...process.env, FRAMEWORK: framework, REDIS_PORT: String(port), PREFIX: prefix, LEASE_MS: String(leaseMs), CUSTOMER_ID: credentials.customerId, API_KEY: credentials.apiKey },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the receiver process exited (${code}) before listening`)));
  });
  return { url: `http://127.0.0.1:${JSON.parse(line).port}/cb`, child };
}

const post = (url: string, signed: { body: string; headers: Record<string, string> }) => fetch(url, { method: 'POST', body: signed.body, headers: signed.headers });
async function waitFor(check: () => Promise<boolean>) {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await sleep(50);
  }
  throw new Error('the condition did not hold within 10 s');
}
async function postUntilNot503(url: string, signed: { body: string; headers: Record<string, string> }) {
  for (let i = 0; i < 100; i++) {
    const r = await post(url, signed);
    if (r.status !== 503) return r;
    await r.arrayBuffer();
    await sleep(100);
  }
  throw new Error('still 503 after 10 s');
}

const pairs: Array<[Framework, Framework]> = [['express', 'fastify'], ['hono', 'express']];
describe.each(pairs)('two receiver processes (%s and %s) sharing one Redis', (oneFramework, otherFramework) => {
  it('the same delivery to both at once: the handler runs once, success is recorded once, the other copy gets 503', async () => {
    const prefix = unique();
    const redis = connection();
    const [a, b] = await Promise.all([startProcess(oneFramework, prefix, 30_000), startProcess(otherFramework, prefix, 30_000)]);
    const payload = freshPayload();
    const signed = createSignedCallback(payload, credentials);
    const answers = [post(a.url, signed), post(b.url, signed)].map((p) => p.then(async (r) => ({ status: r.status, retryAfter: r.headers.get('retry-after'), body: await r.json() })));
    // The copy that lost is answered while the winner's handler still waits for its release.
    const first = await Promise.race(answers);
    expect(first.status).toBe(503);
    expect(first.retryAfter).toBe('30');
    await redis.rpush(`${prefix}release:${payload.reference_id}`, 'go');
    const settled = await Promise.all(answers);
    expect(settled.map((r) => r.status).sort()).toEqual([200, 503]);
    expect(await redis.get(`${prefix}runs:${payload.reference_id}`)).toBe('1');
    expect(await redis.get(`${prefix}successes:${payload.reference_id}`)).toBe('1');
    // The service's retries: both processes now answer 200 duplicate, without running the handler.
    for (const url of [a.url, b.url]) expect(await (await postUntilNot503(url, signed)).json()).toEqual({ duplicate: true });
    const identity = callbackIdentity(JSON.parse(signed.body), signed.body);
    expect(await redis.get(`${prefix}callback:${credentials.customerId}:${identity}`)).toBe('done');
    expect(await redis.get(`${prefix}runs:${payload.reference_id}`)).toBe('1');
    a.child.kill('SIGTERM');
    b.child.kill('SIGTERM');
  });

  it('a process killed mid-handler does not lose the update: after its lease the other process handles it', async () => {
    const prefix = unique();
    const redis = connection();
    const [a, b] = await Promise.all([startProcess(oneFramework, prefix, 1000), startProcess(otherFramework, prefix, 1000)]);
    const payload = freshPayload();
    const signed = createSignedCallback(payload, credentials);
    void post(a.url, signed).catch(() => undefined); // its handler waits for a release that never comes
    await waitFor(async () => (await redis.get(`${prefix}runs:${payload.reference_id}`)) === '1');
    a.child.kill('SIGKILL'); // dies mid-handler: it never completes nor abandons
    const retry = postUntilNot503(b.url, signed);
    // Released only once B runs it (a push before could go to the dead process's blocked BLPOP).
    await waitFor(async () => (await redis.get(`${prefix}runs:${payload.reference_id}`)) === '2');
    await redis.rpush(`${prefix}release:${payload.reference_id}`, 'go');
    expect((await retry).status).toBe(200);
    expect(await redis.get(`${prefix}runs:${payload.reference_id}`)).toBe('2');
    expect(await redis.get(`${prefix}successes:${payload.reference_id}`)).toBe('1');
    b.child.kill('SIGTERM');
  });
});

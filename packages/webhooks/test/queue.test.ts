// Callbacks handed to BullMQ on a real redis-server: the emulator's chaos duplicates become one
// job each; a job completes only when its handler succeeded; a worker killed in the middle of a
// job sees it retried by another and processed once.
import { DEFAULT_CUSTOMER } from '@x/emulator';
import { startEmulator, type RunningEmulator } from '@x/emulator/node';
import { signRequest } from '@x/auth';
import { Queue, QueueEvents, Worker } from 'bullmq';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { handleCallback, type CallbackPayload } from '../src/index.js';
import { enqueueCallbacks, processCallbacks } from '../src/queue-entry.js';
import { createMemoryStateStore, createRouter } from '../src/router-entry.js';

const connection = { host: '127.0.0.1', port: inject('redisPort') };
const fixture = fileURLToPath(new URL('./fixtures/queue-worker.mjs', import.meta.url));
let run = 0;
const closing: Array<{ close(): Promise<unknown> }> = [];
afterEach(async () => {
  for (const c of closing.splice(0).reverse()) await c.close();
});
const queueNamed = () => {
  const queue = new Queue(`callbacks-${process.pid}-${++run}`, { connection });
  closing.push(queue);
  return queue;
};

describe('the receiver: verify, enqueue, answer 200', () => {
  let receiver: Server;
  let server: RunningEmulator;
  let queue: Queue;
  const answers: number[] = [];
  beforeAll(async () => {
    queue = new Queue(`receiver-${process.pid}`, { connection });
    const enqueue = enqueueCallbacks(queue);
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        void handleCallback({ body: Buffer.concat(chunks), headers: req.headers as Record<string, string> }, DEFAULT_CUSTOMER, enqueue)
          .then((handled) => (handled.ok ? 200 : handled.answer.status), () => 503)
          .then((status) => {
            answers.push(status);
            res.writeHead(status).end();
          });
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/cb`;
    server = await startEmulator({ customers: [{ ...DEFAULT_CUSTOMER, callbackUrl: url }], deliveryDelayMs: 5, callbacks: { retryDelaysMs: [] }, logger: { error() {}, warn() {} } });
  });
  afterAll(async () => {
    await server.close();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    await queue.obliterate({ force: true });
    await queue.close();
  });

  it('chaos duplicates become one job each: three copies of every callback, one job per callback', async () => {
    server.emulator.faults.add({ type: 'callback', chaos: 'duplicate', copies: 2, times: Infinity });
    for (const phone of ['15555550180', '15555550181', '15555550182']) {
      const url = `${server.url}/v1/messaging`;
      const body = new URLSearchParams({ phone_number: phone, message: 'hello', message_type: 'ARN' }).toString();
      const { headers } = signRequest({ method: 'POST', url, body, contentType: 'application/x-www-form-urlencoded' }, DEFAULT_CUSTOMER);
      expect((await fetch(url, { method: 'POST', headers, body })).status).toBe(200);
    }
    await server.emulator.idle();
    expect(answers.every((status) => status === 200)).toBe(true);
    const jobs = await queue.getJobs(['waiting', 'prioritized', 'delayed']);
    // Every callback arrived three times and was answered 200 each time; each is one job.
    expect(jobs.length).toBeGreaterThanOrEqual(3);
    expect(answers).toHaveLength(3 * jobs.length);
    const statuses = jobs.map((job) => `${(job.data.payload as CallbackPayload).reference_id}:${(job.data.payload as CallbackPayload).status?.code}`);
    expect(new Set(statuses).size).toBe(jobs.length);
    // What a job holds: the verified payload and its identity, never a signature.
    expect(JSON.stringify(jobs.map((j) => j.data))).not.toMatch(/TSA |authorization/i);
  });
});

describe('the workers: run the router on verified payloads, complete only on success', () => {
  const payload = (code: number, ref = 'ABCDEF0123456789ABCDEF0123456789') => ({ reference_id: ref, sub_resource: 'sms', status: { code, description: 'x', updated_on: `2026-01-01T00:00:0${code === 200 ? 2 : 1}Z` } }) as unknown as CallbackPayload;

  it('a handler that throws fails the job, which is retried and completes once the handler succeeds', async () => {
    const queue = queueNamed();
    const events = new QueueEvents(queue.name, { connection });
    closing.push(events);
    let calls = 0;
    const done: string[] = [];
    const router = createRouter({ store: createMemoryStateStore() }).on('sms.delivered', (sms) => {
      calls += 1;
      if (calls === 1) throw new Error('the database is down');
      done.push(sms.reference_id);
    }).otherwise(() => undefined);
    const { jobId } = await enqueueCallbacks(queue, { jobOptions: { attempts: 3, backoff: { type: 'fixed', delay: 10 } } })(payload(200));
    const worker = new Worker(queue.name, processCallbacks(router), { connection });
    closing.push(worker);
    const job = (await queue.getJob(jobId))!;
    expect(await job.waitUntilFinished(events, 10_000)).toEqual({ routed: true, event: 'sms.delivered' });
    expect(calls).toBe(2);
    expect(done).toEqual(['ABCDEF0123456789ABCDEF0123456789']);
    expect((await queue.getJob(jobId))!.attemptsMade).toBe(2);
  });

  it('a job of something else than a callback fails with what to do', async () => {
    const processor = processCallbacks(createRouter().otherwise(() => undefined));
    await expect(processor({ data: { hello: 'world' } })).rejects.toThrow(/enqueueCallbacks/);
  });

  it('a worker killed in the middle of a job: another worker takes it over and processes it once', async () => {
    const queue = queueNamed();
    const events = new QueueEvents(queue.name, { connection });
    closing.push(events);
    const { jobId } = await enqueueCallbacks(queue)(payload(200, '0123456789ABCDEF0123456789ABCDEF'));
    const child = spawn(process.execPath, [fixture, JSON.stringify({ port: connection.port, queue: queue.name })], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (chunk: Buffer) => String(chunk).includes('handling') && resolve());
      child.once('exit', (code) => reject(new Error(`the worker exited (${code}) before handling`)));
    });
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));

    const handled: string[] = [];
    const router = createRouter({ store: createMemoryStateStore() }).on('sms.delivered', (sms) => void handled.push(sms.reference_id)).otherwise(() => undefined);
    const worker = new Worker(queue.name, processCallbacks(router), { connection, lockDuration: 1000, stalledInterval: 300 });
    closing.push(worker);
    const job = (await queue.getJob(jobId))!;
    expect(await job.waitUntilFinished(events, 15_000)).toMatchObject({ routed: true });
    expect(handled).toEqual(['0123456789ABCDEF0123456789ABCDEF']);
    expect(await queue.getJobCounts('completed', 'failed', 'active', 'waiting')).toEqual({ completed: 1, failed: 0, active: 0, waiting: 0 });
  }, 30_000);
});

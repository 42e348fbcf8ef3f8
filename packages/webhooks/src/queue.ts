/**
 * Callbacks handed to a queue: the receiver verifies, enqueues and answers 200 at once; workers
 * process the already-verified payloads with the router. BullMQ is the reference engine (its
 * `Queue` and `Worker`, which you create); the callback's identity is the job id, so a duplicate
 * callback never becomes a second job, and a job completes only when its handler succeeded.
 *
 * @packageDocumentation
 * @module @x/webhooks/queue
 */
import { sha256Hex } from '@x/auth/protocol';
import { WebhookError } from './errors.js';
import { callbackIdentity } from './identity.js';
import type { CallbackEvent, CallbackRouter, RouteOutcome } from './router.js';
import type { CallbackPayload } from './types.js';

/** What a job holds: the verified payload and its identity. Never the raw body or a signature. */
export interface CallbackJob {
  payload: CallbackPayload;
  /** The callback's de-duplication identity (`callbackIdentity`). */
  identity: string;
  /** When the receiver enqueued it (epoch ms). */
  receivedAt: number;
}

/** The part of a BullMQ `Queue` the receiver uses (any queue with the same `add` works). */
export interface CallbackQueue {
  add(name: string, data: CallbackJob, options: CallbackJobOptions): Promise<{ id?: string | undefined }>;
}

/** The job options `enqueueCallbacks` sets; any may be overridden but `jobId`. */
export interface CallbackJobOptions {
  jobId: string;
  attempts?: number;
  backoff?: { type: 'exponential' | 'fixed'; delay: number } | number;
  removeOnComplete?: boolean | number | { age: number; count?: number };
  removeOnFail?: boolean | number | { age: number; count?: number };
}

export interface EnqueueOptions {
  /** The job's name. Default `'callback'`. */
  name?: string | undefined;
  /**
   * Options of every job. Defaults: 10 attempts with exponential backoff from 1 s; completed and
   * failed jobs kept 7 days (a copy of the callback that arrives within them is recognised by
   * its job id and adds nothing: do not remove jobs sooner than copies can arrive).
   */
  jobOptions?: Omit<Partial<CallbackJobOptions>, 'jobId'> | undefined;
}

const WEEK_S = 7 * 86_400;

/**
 * The job id of a callback: from its identity, in characters every engine takes (no ":"). With it,
 * a worker or a tool finds the job of a callback it holds.
 *
 * @example
 * ```ts
 * import { callbackIdentity } from '@x/webhooks';
 * import { callbackJobId } from '@x/webhooks/queue';
 *
 * const payload = { reference_id: '0123456789ABCDEF0123456789ABCDEF', sub_resource: 'sms', status: { code: 200, updated_on: '2026-01-01T00:00:00Z' } };
 * const jobId = callbackJobId(callbackIdentity(payload, JSON.stringify(payload)));
 * ```
 */
export const callbackJobId = (identity: string): string => `callback-${sha256Hex(identity)}`;

/**
 * The receiver's side: a function that enqueues one verified callback on `queue`, its identity as
 * the job id. Give it the payload your adapter verified (`req.callback`, `request.callback`,
 * `c.get('callback')`) and answer 200 once it resolves; when it rejects (the queue's Redis is down)
 * answer 5xx, so the service retries.
 *
 * @example
 * ```ts
 * import { Queue } from 'bullmq';
 * import { enqueueCallbacks } from '@x/webhooks/queue';
 * import { handleCallback } from '@x/webhooks';
 *
 * const enqueue = enqueueCallbacks(new Queue('callbacks', { connection: { host: '127.0.0.1', port: 6379 } }));
 * export const receive = (body: Uint8Array, headers: Record<string, string>) => handleCallback({ body, headers }, { customerId, apiKey }, enqueue);
 * ```
 */
export function enqueueCallbacks(queue: CallbackQueue, options: EnqueueOptions = {}): (payload: CallbackPayload) => Promise<{ jobId: string }> {
  if (!queue || typeof queue.add !== 'function') throw new WebhookError('invalid_option', 'enqueueCallbacks needs a queue with add(), e.g. new Queue(name, { connection }) of bullmq.');
  const name = options.name ?? 'callback';
  const jobOptions = {
    attempts: 10,
    backoff: { type: 'exponential' as const, delay: 1000 },
    removeOnComplete: { age: WEEK_S },
    removeOnFail: { age: WEEK_S },
    ...options.jobOptions,
  };
  return async (payload) => {
    if (typeof payload !== 'object' || payload === null) throw new WebhookError('invalid_option', 'enqueueCallbacks: pass the verified payload (req.callback), not the raw body.');
    const identity = callbackIdentity(payload, JSON.stringify(payload));
    const jobId = callbackJobId(identity);
    await queue.add(name, { payload, identity, receivedAt: Date.now() }, { ...jobOptions, jobId });
    return { jobId };
  };
}

/** What a processed job answers (the job's return value): never the handler's value, which may hold personal data. */
export interface ProcessedCallback {
  routed: boolean;
  event: CallbackEvent | undefined;
  reason?: 'duplicate' | 'stale' | 'unhandled' | undefined;
}

/**
 * The worker's side: a BullMQ processor that runs `router` on each job's already-verified payload
 * (no second verification, no parsing of a body). The job completes only when the handler
 * succeeded; a handler that throws fails the job, which the queue retries (its `attempts`). Give
 * the router a state store (`createRouter({ store })`, `createRedisStateStore` of `@x/redis` for
 * several workers) so that a job retried after its handler succeeded (a worker killed before it
 * reported) is answered without running the handler again.
 *
 * @example
 * ```ts
 * import { Worker } from 'bullmq';
 * import { createMemoryStateStore, createRouter } from '@x/webhooks/router';
 * import { processCallbacks } from '@x/webhooks/queue';
 *
 * const router = createRouter({ store: createMemoryStateStore() }).on('sms.delivered', (sms) => db.saveStatus(sms.reference_id, 'delivered'));
 * new Worker('callbacks', processCallbacks(router), { connection: { host: '127.0.0.1', port: 6379 } });
 * ```
 */
export function processCallbacks<T>(router: Pick<CallbackRouter<T>, 'handle'>): (job: { data: unknown }) => Promise<ProcessedCallback> {
  if (!router || typeof router.handle !== 'function') throw new WebhookError('invalid_option', 'processCallbacks needs a router: createRouter() of @x/webhooks/router, with its handlers.');
  return async (job) => {
    const data = job?.data as Partial<CallbackJob> | undefined;
    if (typeof data?.payload !== 'object' || data.payload === null) {
      throw new WebhookError('invalid_job', 'processCallbacks: this job holds no callback payload: enqueue with enqueueCallbacks() of @x/webhooks/queue.');
    }
    const outcome: RouteOutcome<T | undefined> = await router.handle(data.payload);
    return outcome.routed ? { routed: true, event: outcome.event } : { routed: false, event: outcome.event, reason: outcome.reason };
  };
}

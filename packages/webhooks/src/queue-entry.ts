/**
 * Callbacks handed to a queue (BullMQ as the reference engine): `enqueueCallbacks` for the
 * receiver, `processCallbacks` for the workers.
 *
 * @packageDocumentation
 * @module @x/webhooks/queue
 */
export { enqueueCallbacks, processCallbacks, callbackJobId } from './queue.js';
export type { CallbackJob, CallbackJobOptions, CallbackQueue, EnqueueOptions, ProcessedCallback } from './queue.js';
// The types these names use (the main entry and the router's have them too).
export type { CallbackPayload } from './types.js';
export type { CallbackRouter, CallbackEvent } from './router.js';

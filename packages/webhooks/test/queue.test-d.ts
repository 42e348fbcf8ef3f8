import type { Queue } from 'bullmq';
import { describe, expectTypeOf, it } from 'vitest';
import { enqueueCallbacks, processCallbacks, type CallbackJob, type CallbackQueue, type ProcessedCallback } from '../src/queue-entry.js';
import { createRouter } from '../src/router-entry.js';
import type { CallbackPayload } from '../src/index.js';

describe('@x/webhooks/queue types', () => {
  it('a BullMQ queue of callback jobs is a CallbackQueue; the receiver takes a verified payload', () => {
    expectTypeOf<Queue<CallbackJob>>().toExtend<CallbackQueue>();
    expectTypeOf(enqueueCallbacks).returns.toEqualTypeOf<(payload: CallbackPayload) => Promise<{ jobId: string }>>();
    // @ts-expect-error: the job id is the callback's identity, never an option
    enqueueCallbacks({} as CallbackQueue, { jobOptions: { jobId: 'mine' } });
  });
  it('the processor answers what happened, never the handler\'s value', () => {
    const processor = processCallbacks(createRouter().on('sms.delivered', () => 42));
    expectTypeOf(processor).returns.resolves.toEqualTypeOf<ProcessedCallback>();
  });
});

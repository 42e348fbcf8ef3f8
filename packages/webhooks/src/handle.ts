import { callbackAnswer, type CallbackAnswer } from './failures.js';
import { settleDelivery } from './settle.js';
import type { CallbackPayload } from './types.js';
import { verifyCallback, type CallbackInput, type CallbackOptions, type CallbackRejection, type VerifiedCallback } from './verify.js';

export type HandledCallback<T> = { ok: true; payload: CallbackPayload; value: T } | (CallbackRejection & { answer: CallbackAnswer });

/**
 * Verifies a callback and runs your handler on it, exactly once with a `replayStore`: the
 * delivery is completed when the handler returns, abandoned when it throws (the error is
 * rethrown: answer 5xx so the service retries). A success after the lease was lost goes to
 * `options.onLeaseLost`, a store failure to `options.onStoreError`. A rejected callback never reaches the handler;
 * its `answer` says what to send back (401, 400, 413, 200 for a duplicate, 503 while in progress).
 *
 * @example
 * ```ts
 * import { createMemoryReplayStore } from '@x/auth';
 * import { handleCallback } from '@x/webhooks';
 *
 * const options = { customerId, apiKey, replayStore: createMemoryReplayStore() };
 * async function receive(body: Uint8Array, headers: Record<string, string>): Promise<Response> {
 *   const handled = await handleCallback({ body, headers }, options, (payload) => db.saveStatus(payload));
 *   if (handled.ok) return Response.json({ ok: true });
 *   return Response.json(handled.answer.body, { status: handled.answer.status, headers: handled.answer.headers });
 * }
 * ```
 */
export async function handleCallback<T>(
  input: CallbackInput,
  options: CallbackOptions,
  handler: (payload: CallbackPayload, callback: VerifiedCallback) => T | Promise<T>,
): Promise<HandledCallback<T>> {
  const result = await verifyCallback(input, options);
  if (!result.ok) return { ...result, answer: callbackAnswer(result.reason, options) };
  let value: T;
  try {
    value = await handler(result.payload, result);
  } catch (error) {
    await settleDelivery(result, false, options);
    throw error;
  }
  await settleDelivery(result, true, options);
  return { ok: true, payload: result.payload, value };
}

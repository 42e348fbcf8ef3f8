import { BodyTooLargeError, readRequestBody } from './body.js';
import { DEFAULT_BODY_LIMIT } from './failures.js';
import { reject, verifyCallback, type CallbackOptions, type CallbackResult } from './verify.js';

export interface CallbackRequestOptions extends CallbackOptions {
  /** Largest body read, in bytes. Default 100 KiB; a larger one is `body_too_large` (answer 413). */
  limit?: number | undefined;
}

/**
 * For web-standard servers (Deno, Bun, workers, Hono): reads the body once, at most `limit` bytes
 * (stream-read, cancelled at the limit), and verifies it. The request body is consumed; use
 * `result.payload`. A body already read by the caller is a `WebhookError('body_used')`.
 *
 * @example
 * ```ts
 * import { verifyCallbackRequest } from '@x/webhooks';
 *
 * async function receive(request: Request): Promise<Response> {
 *   const result = await verifyCallbackRequest(request, { customerId, apiKey, limit: 64 * 1024 });
 *   if (!result.ok) return Response.json({ error: result.reason }, { status: 401 });
 *   await db.saveStatus(result.payload);
 *   return Response.json({ ok: true });
 * }
 * ```
 */
export async function verifyCallbackRequest(request: Request, options: CallbackRequestOptions): Promise<CallbackResult> {
  const limit = options.limit ?? DEFAULT_BODY_LIMIT;
  let body: Uint8Array;
  try {
    body = await readRequestBody(request, limit);
  } catch (error) {
    if (error instanceof BodyTooLargeError) return reject('body_too_large', undefined, error.message);
    throw error;
  }
  return verifyCallback({ body, headers: request.headers }, options);
}

import { readBoundedBody } from '@x/auth/protocol';
import { BodyTooLargeError, WebhookError } from './errors.js';

export { BodyTooLargeError };

/**
 * The bytes of a web-standard Request, at most `limit`: refused up front when Content-Length says
 * more, else read by `readBoundedBody` of `@x/auth/protocol` (cancelled as soon as the limit is passed).
 *
 * @example
 * ```ts
 * import { readRequestBody } from '@x/webhooks/adapter';
 *
 * async function receive(request: Request) {
 *   const body = await readRequestBody(request, 64 * 1024); // BodyTooLargeError beyond 64 KiB
 *   return body.byteLength;
 * }
 * ```
 */
export async function readRequestBody(request: Request, limit: number): Promise<Uint8Array> {
  if (request.bodyUsed) {
    throw new WebhookError(
      'body_used',
      'The request body was already read, so its bytes cannot be verified: verify first, pass request.clone(), ' +
        'or call verifyCallback with the bytes you read.',
    );
  }
  const stream = request.body;
  if (!stream) return new Uint8Array();
  // A declared Content-Length over the limit: cancelled unread, not awaited (the sender may keep its connection open). No header: Number(null) is 0.
  if (Number(request.headers.get('content-length')) > limit) {
    stream.cancel().catch(() => undefined);
    throw new BodyTooLargeError(limit);
  }
  const bytes = await readBoundedBody(stream, limit);
  if (!bytes) throw new BodyTooLargeError(limit);
  return bytes;
}

import { BodyTooLargeError, WebhookError } from './errors.js';

export { BodyTooLargeError };

/**
 * The bytes of a web-standard Request, at most `limit`: refused up front when Content-Length says
 * more, else read chunk by chunk and cancelled as soon as the limit is passed.
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
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (declared > limit) {
    await stream.cancel().catch(() => undefined);
    throw new BodyTooLargeError(limit);
  }
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLargeError(limit);
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

import { BodyTooLargeError, WebhookError } from '@x/webhooks';
import { readRequestBody } from '@x/webhooks/adapter';
import type { HonoRequest } from 'hono';

/** The message of the `WebhookError('body_used')` thrown when the body was read and no raw copy is left. */
export const BODY_USED_MESSAGE =
  'The request body was read before the @x/hono verifier (c.req.raw.text(), c.req.raw.json(), c.req.formData() or another reader that keeps ' +
  'no raw copy), so its signature cannot be checked. Mount the verifier before anything that reads the body, or read it with Hono\'s ' +
  'c.req.json(), c.req.text(), c.req.arrayBuffer() or c.req.parseBody(), which keep the raw text or bytes for the verifier.';

/** The cache where Hono keeps what c.req.json() / text() / arrayBuffer() / blob() read (promises at run time). */
type Cache = Partial<Record<'arrayBuffer' | 'text' | 'blob' | 'formData' | 'json', unknown>>;

/** Exactly the bytes of `view`, as an ArrayBuffer of their own. */
const ownBuffer = (view: Uint8Array): ArrayBuffer =>
  view.byteOffset === 0 && view.byteLength === view.buffer.byteLength && view.buffer instanceof ArrayBuffer ? view.buffer : (view.slice().buffer as ArrayBuffer);

/**
 * The raw body of a Hono request, at most `limit` bytes, read once:
 * - not read yet: the stream is read (cancelled past the limit) and its bytes are left in Hono's
 *   body cache, so c.req.json() / text() / arrayBuffer() / parseBody() in the handler still work;
 * - read earlier through Hono (c.req.json(), text(), arrayBuffer(), blob(), parseBody()): the raw
 *   text or bytes Hono kept (c.req.json() keeps the text it parsed);
 * - read some other way: `WebhookError('body_used')` saying what to do.
 */
export async function readHonoBody(req: HonoRequest, limit: number): Promise<Uint8Array | string> {
  const cache = req.bodyCache as Cache;
  if (!req.raw.bodyUsed) {
    const bytes = await readRequestBody(req.raw, limit);
    cache.arrayBuffer = Promise.resolve(ownBuffer(bytes));
    return bytes;
  }
  let raw: Uint8Array | string;
  if (cache.arrayBuffer) raw = new Uint8Array((await cache.arrayBuffer) as ArrayBuffer);
  else if (cache.blob) raw = new Uint8Array(await ((await cache.blob) as Blob).arrayBuffer());
  else if (cache.text) raw = (await cache.text) as string;
  else throw new WebhookError('body_used', BODY_USED_MESSAGE);
  const size = typeof raw === 'string' ? new TextEncoder().encode(raw).byteLength : raw.byteLength;
  if (size > limit) throw new BodyTooLargeError(limit);
  return raw;
}

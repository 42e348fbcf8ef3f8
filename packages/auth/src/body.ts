/**
 * The bytes of a body stream, at most `limit` of them: read chunk by chunk, and cancelled as soon
 * as more arrive (then `undefined`), so a body larger than the limit never costs more than the
 * limit in memory. The one bounded reader of the SDK: `@x/webhooks`' `readRequestBody` and the
 * emulator read request bodies with it. Check a declared Content-Length first when there is one.
 *
 * @example
 * ```ts
 * import { readBoundedBody } from '@x/auth/protocol';
 *
 * async function receive(request: Request): Promise<Response> {
 *   const body = request.body ? await readBoundedBody(request.body, 64 * 1024) : new Uint8Array();
 *   if (!body) return new Response('Payload Too Large', { status: 413 });
 *   return new Response(`${body.byteLength} bytes`);
 * }
 * ```
 */
export async function readBoundedBody(stream: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array | undefined> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      // Cancelled, not awaited: a source may take its time to stop (an open connection), and the answer never waits for it.
      reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

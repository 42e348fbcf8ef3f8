/**
 * Node-only entry of `@x/webhooks`: the stream reader of the Node adapters.
 *
 * @packageDocumentation
 * @module @x/webhooks/node
 */
// The portable core never imports this file (lint keeps node:* out of the rest of src/).
import { BodyTooLargeError } from '../errors.js';

export { BodyTooLargeError };

/**
 * Reads a stream to its end, at most `limit` bytes: refused at once when `contentLength` (the
 * request's Content-Length header, if any) says more, else cut at the limit.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { collect } from '@x/webhooks/node';
 *
 * createServer(async (req, res) => {
 *   const body = await collect(req, 100 * 1024, req.headers['content-length']); // BodyTooLargeError beyond the limit
 *   res.end(String(body.byteLength));
 * });
 * ```
 */
export function collect(stream: NodeJS.ReadableStream, limit: number, contentLength?: string | undefined): Promise<Uint8Array> {
  if (Number(contentLength) > limit) return Promise.reject(new BodyTooLargeError(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        stream.resume(); // drain the rest so the connection can answer
        reject(new BodyTooLargeError(limit));
      } else chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      const all = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
      resolve(new Uint8Array(all.buffer, all.byteOffset, all.byteLength));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const cleanup = () => {
      stream.removeListener('data', onData);
      stream.removeListener('end', onEnd);
      stream.removeListener('error', onError);
    };
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
  });
}

// Node-only helpers for @x/webhooks: native HMAC for servers where every microsecond counts.
// The portable core never imports this file (lint keeps node:* out of the rest of src/).
import { callbackSignature } from '@x/auth';
import { nodeMac } from '@x/auth/node';
import { BodyTooLargeError } from '../errors.js';
import type { CallbackSigner } from '../verify.js';

export { BodyTooLargeError };

/** The callback signature with node:crypto (the same result as `callbackSignature` from @x/auth). */
export const nativeCallbackSignature: CallbackSigner = (body, apiKey) => callbackSignature(body, apiKey, nodeMac);

/**
 * Reads a stream to its end, at most `limit` bytes. Event listeners, not `for await`: async
 * iteration of a request stream costs several microseconds per request.
 */
export function collect(stream: NodeJS.ReadableStream, limit: number): Promise<Uint8Array> {
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

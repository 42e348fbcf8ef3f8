// Reading an answer with a cap: never more than `limit` bytes are kept, and the transfer is
// cancelled as soon as the cap is passed (or announced by Content-Length).

/**
 * The cap the client asks a fetch to enforce, read by `createNodeFetch` (`@x/client/node`) when a
 * client calls it as a fetch; a registry symbol, so that separate bundles agree.
 */
export const MAX_RESPONSE_BYTES = Symbol.for('@x/client.maxResponseBytes');

import type { FetchBody, FetchResponse } from './fetch.js';

export type Body = { text: string } | { tooLarge: true };

type WebStream = Extract<FetchBody, { getReader: unknown }>;
const isWebStream = (body: FetchBody): body is WebStream => typeof (body as Partial<WebStream>).getReader === 'function';

/** Stops the transfer of a body that will not be read (a web stream is cancelled, a Node stream destroyed). */
export function cancel(response: FetchResponse, reason?: unknown): void {
  const { body } = response;
  try {
    if (!body) return;
    if (isWebStream(body)) void body.cancel(reason).catch(() => {});
    else (body as { destroy?: (error?: unknown) => void }).destroy?.();
  } catch {
    // A locked or already-consumed body: nothing left to cancel.
  }
}

/**
 * The body as text, or `tooLarge` when it is longer than `limit` bytes. Rejects with the
 * signal's reason when it fires while reading (even if the fetch ignores its signal).
 */
export async function readBody(response: FetchResponse, limit: number, signal: AbortSignal, method: string): Promise<Body> {
  // A HEAD answer announces the length of a body it does not carry.
  const announced = method === 'HEAD' ? Number.NaN : Number(response.headers.get('content-length') ?? Number.NaN);
  const encoded = (response.headers.get('content-encoding') ?? 'identity').toLowerCase() !== 'identity';
  if (announced > limit && !encoded) {
    cancel(response);
    return { tooLarge: true };
  }
  // Otherwise count what is read: a compressed body's length says nothing of what it inflates to.
  const stream = response.body;
  if (!stream) return { text: await response.text() };
  if (isWebStream(stream)) {
    const reader = stream.getReader();
    const release = () => {
      try {
        reader.releaseLock();
      } catch {
        // Older stream implementations refuse while a cancelled read settles; nothing to release.
      }
    };
    return readChunks({ next: () => reader.read(), stop: (reason) => void reader.cancel(reason).catch(() => {}), release }, limit, signal);
  }
  // An async iterable of chunks (a Node stream, from node-fetch and the like).
  const iterator = stream[Symbol.asyncIterator]();
  return readChunks({ next: () => iterator.next(), stop: () => void Promise.resolve(iterator.return?.()).catch(() => {}) }, limit, signal);
}

/** A body's chunks, from a web stream's reader or a Node stream's iterator: one read loop for both. */
interface Chunks {
  next(): Promise<{ done: true; value?: unknown } | { done?: false; value: Uint8Array | string }>;
  /** Stops the transfer (a web stream is cancelled with `reason`, an iterator returned). */
  stop(reason?: unknown): void;
  release?(): void;
}

// Made at the first use, not at import (Jest's jsdom environment has no TextEncoder).
let encoder: TextEncoder | undefined;

/** Reads the chunks while they fit in `limit` bytes; stops the transfer when the signal fires or the cap is passed. */
async function readChunks(chunks: Chunks, limit: number, signal: AbortSignal): Promise<Body> {
  const onAbort = () => chunks.stop(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  try {
    for (;;) {
      if (signal.aborted) throw signal.reason;
      const step = await chunks.next();
      if (signal.aborted) throw signal.reason;
      if (step.done) return { text: text + decoder.decode() };
      const bytes = typeof step.value === 'string' ? (encoder ??= new TextEncoder()).encode(step.value) : step.value;
      size += bytes.byteLength;
      if (size > limit) {
        chunks.stop();
        return { tooLarge: true };
      }
      text += decoder.decode(bytes, { stream: true });
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    chunks.release?.();
  }
}

import { describe, expect, it } from 'vitest';
import { readBoundedBody } from '../src/protocol.js';

/** A stream of `count` chunks of `size` bytes (chunk i filled with i), counting pulls and noting a cancel. */
function chunked(count: number, size: number) {
  const seen = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (seen.pulled === count) return controller.close();
      controller.enqueue(new Uint8Array(size).fill(seen.pulled++));
    },
    cancel() {
      seen.cancelled = true;
    },
  }, { highWaterMark: 0 });
  return { stream, seen };
}

describe('readBoundedBody', () => {
  it('joins the chunks of a body within the limit, in order', async () => {
    const { stream } = chunked(3, 4);
    expect(await readBoundedBody(stream, 12)).toEqual(new Uint8Array([0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2]));
  });

  it('answers an empty body with no bytes, and a single chunk as its bytes', async () => {
    expect(await readBoundedBody(chunked(0, 4).stream, 10)).toEqual(new Uint8Array());
    expect(await readBoundedBody(chunked(1, 4).stream, 4)).toEqual(new Uint8Array(4));
  });

  it('stops at the first chunk past the limit: undefined, the stream cancelled, nothing more pulled', async () => {
    const { stream, seen } = chunked(100, 4);
    expect(await readBoundedBody(stream, 11)).toBeUndefined();
    expect(seen.cancelled).toBe(true);
    expect(seen.pulled).toBe(3);
  });
});

describe('readBoundedBody past the limit, when cancelling the source never finishes', () => {
  it('answers undefined at once: the 413 never waits for the sender to stop or for its cancel to settle', async () => {
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(10));
      },
      // A source that neither ends nor finishes cancelling (a connection that stays open).
      cancel: () => ((cancelled = true), new Promise<void>(() => undefined)),
    });
    const answer = await Promise.race([readBoundedBody(stream, 4), new Promise((resolve) => setTimeout(() => resolve('still waiting'), 1_000))]);
    expect(answer).toBeUndefined();
    expect(cancelled).toBe(true);
  });
});

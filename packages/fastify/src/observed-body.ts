/**
 * The bytes of a request body as the route's content-type parser reads them: observed, not
 * consumed. The listeners are prepended (ahead of the parser's, whichever parser it is) and do not
 * start the stream flowing: the parser reads it when it is ready, and nothing is read twice.
 */
export class ObservedBody {
  #chunks: Buffer[] = [];
  #size = 0;
  #ended = false;

  /** `tooLarge` is called once, when more than `limit` bytes arrived (the parser refuses them too). */
  constructor(payload: NodeJS.ReadableStream, limit: number, tooLarge: () => void) {
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      this.#size += bytes.length;
      if (this.#size <= limit) return void this.#chunks.push(bytes);
      payload.removeListener('data', onData);
      payload.removeListener('end', onEnd);
      this.#chunks = [];
      tooLarge();
    };
    const onEnd = () => {
      payload.removeListener('data', onData);
      this.#ended = true;
    };
    payload.prependListener('data', onData);
    payload.prependOnceListener('end', onEnd);
  }

  /** The whole body, once the stream ended; undefined if it never did (nothing read it) or went past the limit. */
  bytes(): Uint8Array | undefined {
    if (!this.#ended) return undefined;
    const chunks = this.#chunks;
    // One chunk as it came (Node's HTTP parser hands each chunk over as a buffer of its own); several joined.
    return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, this.#size);
  }
}

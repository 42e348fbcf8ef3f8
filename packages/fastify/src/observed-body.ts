/**
 * The bytes of a request body as the route's content-type parser reads them: observed, not
 * consumed. The listeners are prepended (ahead of the parser's, whichever parser it is) and do not
 * start the stream flowing: the parser reads it when it is ready, and nothing is read twice.
 * A parser that reads text (Fastify's own JSON parser sets the stream's encoding to UTF-8) hands
 * out decoded chunks: those are kept as text, and verified as their UTF-8 bytes.
 */
export class ObservedBody {
  #chunks: (Buffer | string)[] = [];
  #size = 0;
  #ended = false;

  /** `tooLarge` is called once, when more than `limit` bytes arrived (the parser refuses them too). */
  constructor(payload: NodeJS.ReadableStream, limit: number, tooLarge: () => void) {
    const onData = (chunk: Buffer | string) => {
      this.#size += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
      if (this.#size <= limit) return void this.#chunks.push(chunk);
      payload.removeListener('data', onData);
      payload.removeListener('end', onEnd);
      this.#chunks = [];
      tooLarge();
    };
    // A stream ends once: the listeners stay until the request is gone (removing them costs more).
    const onEnd = () => void (this.#ended = true);
    payload.prependListener('data', onData);
    payload.prependListener('end', onEnd);
  }

  /** The whole body, once the stream ended; undefined if it never did (nothing read it) or went past the limit. */
  body(): Buffer | string | undefined {
    if (!this.#ended) return undefined;
    const chunks = this.#chunks;
    if (chunks.length === 1) return chunks[0]!;
    // One kind per stream: its encoding is set (by the parser) before it is read.
    return typeof chunks[0] === 'string' ? chunks.join('') : Buffer.concat(chunks as Buffer[], this.#size);
  }
}

import { errorCodes, type FastifyRequest } from 'fastify';

/**
 * Reads a request payload whole, as Fastify reads bodies for its own parsers: refused up front when
 * Content-Length says more than `limit`, cut at the limit (also the encoded length a preParsing
 * stream reports), and checked against Content-Length. Listeners, not `for await` (cheaper).
 */
export function readPayload(request: FastifyRequest, payload: NodeJS.ReadableStream & { receivedEncodedLength?: number }, limit: number, done: (error: Error | null, body?: Buffer) => void): void {
  const declared = Number(request.headers['content-length']);
  if (declared > limit) return done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
  const chunks: Buffer[] = [];
  let size = 0;
  const onData = (chunk: Buffer | string) => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += bytes.length;
    if (size > limit || (payload.receivedEncodedLength ?? 0) > limit) {
      cleanup();
      done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      return;
    }
    chunks.push(bytes);
  };
  const onEnd = (error?: Error & { statusCode?: number }) => {
    cleanup();
    if (error) {
      if (!(typeof error.statusCode === 'number' && error.statusCode >= 400)) error.statusCode = 400;
      return done(error);
    }
    if (!Number.isNaN(declared) && (payload.receivedEncodedLength || size) !== declared) return done(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
    // One chunk as it came (Node's HTTP parser hands each body chunk over as a buffer of its own,
    // never a view over a read buffer it reuses); several joined into one.
    done(null, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
  };
  const cleanup = () => {
    payload.removeListener('data', onData);
    payload.removeListener('end', onEnd);
    payload.removeListener('error', onEnd);
  };
  payload.on('data', onData);
  payload.on('end', onEnd);
  payload.on('error', onEnd);
  payload.resume();
}

export const isTooLarge = (error: Error): boolean => (error as { code?: string }).code === 'FST_ERR_CTP_BODY_TOO_LARGE';

import { callbackAnswer } from '@x/webhooks';
import { BodyTooLargeError, collect } from '@x/webhooks/node';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';

/** How a route verifies its requests (undefined: not at all). Internal: not exported by the package. */
export type Mode = 'callback' | 'signed' | undefined;

/**
 * preParsing: keeps the raw bytes of opted-in routes (whatever the method, so a GET body is
 * verified too), then hands Fastify the same bytes to parse as usual. Over the route's bodyLimit:
 * 413 with the same body as every adapter.
 */
export const captureRawBody =
  (modeOf: (request: FastifyRequest) => Mode, defaultLimit: number | undefined) =>
  async (request: FastifyRequest, reply: FastifyReply, payload: NodeJS.ReadableStream) => {
    if (!modeOf(request)) return payload;
    const limit = request.routeOptions.bodyLimit ?? defaultLimit ?? 1_048_576;
    let raw: Uint8Array;
    try {
      raw = await collect(payload, limit);
    } catch (cause) {
      if (!(cause instanceof BodyTooLargeError)) throw cause;
      const answer = callbackAnswer('body_too_large', { limit });
      reply.code(answer.status).headers(answer.headers).send(answer.body); // Fastify stops here: the reply is sent
      return payload;
    }
    request.rawBody = raw;
    // A minimal stream, not Readable.from (slower).
    const replay = new Readable({ read() {} }) as Readable & { receivedEncodedLength?: number };
    replay.push(raw);
    replay.push(null);
    replay.receivedEncodedLength = raw.length;
    return replay;
  };

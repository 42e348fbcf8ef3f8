import type { VerifyOptions } from '@x/auth';
import { callbackAnswer, WebhookError, type CallbackAnswer, type CallbackOptions } from '@x/webhooks';
import { decideCallback, receiveSignedRequest, settleWith, succeeded, withKeyCache, type VerifiedCallback } from '@x/webhooks/adapter';
import { collect } from '@x/webhooks/node';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { ObservedBody } from './observed-body.js';

// Per request, where the route's verification stands (a request decorator, null until the route's
// preParsing hook ran): the bytes being observed or read, then verified, or a delivery to settle.
export const STATE = Symbol('@x/fastify state');
// The verified body as it was read: bytes, or the text a parser decoded (request.rawBody encodes it when read).
export const RAW = Symbol('@x/fastify raw body');

/** A delivery to settle from the handler's outcome (with a replayStore). */
interface Delivery {
  settle: (ok: boolean) => void;
  failed: boolean;
}
const VERIFIED = { verified: true } as const;
/** The body as it is observed or was read, then verified (no delivery to settle) or a delivery in progress. */
export type RouteState = ObservedBody | Uint8Array | typeof VERIFIED | Delivery;

declare module 'fastify' {
  interface FastifyRequest {
    [STATE]: RouteState | null;
    [RAW]: Uint8Array | string | null;
  }
}

type Done = (error?: Error | null) => void;
type PreParsingDone = (error: Error | null, payload?: NodeJS.ReadableStream) => void;

const BODYLESS = new Set(['GET', 'HEAD', 'TRACE']);

/**
 * Whether Fastify hands this request's body to a content-type parser (its own rule: a method with a
 * body, and a Content-Type or a body at all). Then that parser reads the stream, whichever it is.
 */
const parsedByFastify = ({ method, headers }: FastifyRequest) =>
  !BODYLESS.has(method) && (headers['content-type'] !== undefined || headers['transfer-encoding'] !== undefined || (headers['content-length'] ?? '0') !== '0');

/**
 * request.body as the route's content-type parser made it from the observed bytes, when that is a
 * JSON object: the payload once the bytes are verified, so they are not parsed twice (as Express's
 * adapter uses req.body parsed from the bytes it verified). Anything else (a parser that kept text
 * or a Buffer, an array) is left aside and the bytes are parsed.
 */
const parsedBody = (request: FastifyRequest) => () => {
  const body = request.body;
  return typeof body === 'object' && body !== null && !Array.isArray(body) && !(body instanceof Uint8Array) ? body : undefined;
};

const declaredOver = (request: FastifyRequest, limit: number) => Number(request.headers['content-length']) > limit;

const send = (reply: FastifyReply, answer: CallbackAnswer) => {
  if (answer.status === 413) reply.header('connection', 'close');
  void reply.code(answer.status).headers(answer.headers).send(answer.body);
};
const tooLarge = (reply: FastifyReply, limit: number) => send(reply, callbackAnswer('body_too_large', { limit }));

/** Opted-in routes whose hooks never saw the body: declared before the plugin, or a parser that left the stream unread. */
const notVerified = (request: FastifyRequest, mode: 'callback' | 'signed') =>
  new WebhookError(
    'not_verified',
    `@x/fastify: the ${mode === 'callback' ? 'callback' : 'signed request'} on ${request.method} ${request.url} was not verified: its body was not read ` +
      'through the route (a content-type parser that leaves the stream unread). Give its content type a parser that reads the body, as Fastify\'s own do.',
  );

/**
 * The route hooks of callback routes (one key cache for every route of the plugin):
 * - preParsing: a body that a content-type parser reads (the context's own JSON parser, yours or
 *   Fastify's) is observed as that parser reads it: one pass, no replayed copy. A body no parser
 *   reads (GET, HEAD) is read here. Over the route's bodyLimit: 413.
 * - preValidation: verifies the bytes and answers a refused request (401 / 400, 200 duplicate,
 *   503 in progress) before validation and the handler; ties a delivery to the client's connection.
 * - onError, onResponse (with a replayStore): settle the delivery from the handler's outcome.
 */
export function callbackHooks(options: CallbackOptions) {
  const verify: CallbackOptions = withKeyCache(options);
  return (limit: number) => {
    function preParsing(request: FastifyRequest, reply: FastifyReply, payload: NodeJS.ReadableStream, done: PreParsingDone) {
      if (declaredOver(request, limit)) return tooLarge(reply, limit);
      if (parsedByFastify(request)) {
        request[STATE] = new ObservedBody(payload, limit, () => tooLarge(reply, limit));
        return done(null, payload);
      }
      collect(payload, limit, request.headers['content-length']).then(
        (raw) => {
          request[STATE] = raw;
          done(null, payload);
        },
        () => tooLarge(reply, limit), // past the limit (the only refusal of a stream read to its end)
      );
    }

    const accept = (request: FastifyRequest, reply: FastifyReply, raw: Uint8Array | string, callback: VerifiedCallback | undefined, done: Done) => {
      if (!callback) return; // refused: the answer is written
      request[RAW] = raw;
      request.callback = callback.payload;
      request.callbackHeader = callback.header;
      if (!verify.replayStore) return done();
      const delivery: Delivery = { settle: settleWith(callback, verify), failed: false };
      request[STATE] = delivery;
      // Fastify's onRequestAbort does not fire once the body was read: watch the raw response.
      reply.raw.once('close', () => {
        if (!reply.raw.writableFinished) delivery.settle(false);
      });
      done();
    };

    function preValidation(request: FastifyRequest, reply: FastifyReply, done: Done) {
      const state = request[STATE];
      const raw = state instanceof ObservedBody ? state.body() : state instanceof Uint8Array ? state : undefined;
      if (raw === undefined) return done(notVerified(request, 'callback'));
      const exchange = { headers: request.headers, parsed: state instanceof ObservedBody ? parsedBody(request) : undefined, respond: (answer: CallbackAnswer) => send(reply, answer) };
      decideCallback(exchange, raw, verify).then((callback) => accept(request, reply, raw, callback, done), done);
    }

    const hooks: { preParsing: typeof preParsing; preValidation: typeof preValidation; onError?: unknown; onResponse?: unknown } = { preParsing, preValidation };
    if (verify.replayStore) {
      hooks.onError = (request: FastifyRequest, _reply: FastifyReply, _error: Error, done: () => void) => {
        const state = request[STATE];
        if (state && 'settle' in state) state.failed = true;
        done();
      };
      hooks.onResponse = (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
        const state = request[STATE];
        if (state && 'settle' in state) state.settle(!state.failed && succeeded(reply.statusCode));
        done();
      };
    }
    return hooks;
  };
}

/** The verified bytes again, for the route's content-type parser. A minimal stream, not Readable.from (slower). */
function replay(raw: Uint8Array): NodeJS.ReadableStream {
  const stream = new Readable({ read() {} }) as Readable & { receivedEncodedLength?: number };
  stream.push(raw);
  stream.push(null);
  stream.receivedEncodedLength = raw.byteLength;
  return stream;
}

/**
 * The route hooks of signed-request routes (one bounded key cache for the credentials lookup):
 * - preParsing: reads the body (413 over the route's bodyLimit) and verifies it with the request
 *   target; a refused request is answered 401 with the service's error body, before any parser
 *   sees its bytes. The content-type parser then reads the verified bytes.
 * - preValidation: refuses a request the preParsing hook never saw.
 */
export function signedHooks(options: VerifyOptions) {
  const verify: VerifyOptions = withKeyCache(options);
  return (limit: number) => {
    function preParsing(request: FastifyRequest, reply: FastifyReply, payload: NodeJS.ReadableStream, done: PreParsingDone) {
      let raw: Uint8Array = new Uint8Array();
      const exchange = {
        method: request.method,
        url: request.url,
        headers: request.headers,
        readBody: (max: number) => collect(payload, max, request.headers['content-length']).then((bytes) => (raw = bytes)),
        respond: (answer: CallbackAnswer) => send(reply, answer),
      };
      receiveSignedRequest(exchange, verify, limit).then((verified) => {
        if (!verified) return;
        request[RAW] = raw;
        request.customerId = verified.customerId;
        request[STATE] = VERIFIED;
        // Parsed only once verified: unverified bytes are never parsed.
        done(null, BODYLESS.has(request.method) || raw.byteLength === 0 ? payload : replay(raw));
      }, done);
    }

    function preValidation(request: FastifyRequest, _reply: FastifyReply, done: Done) {
      done(request[STATE] === VERIFIED ? undefined : notVerified(request, 'signed'));
    }
    return { preParsing, preValidation };
  };
}

import { verifyRequest, type VerifyOptions } from '@x/auth';
import { nodeMac } from '@x/auth/node';
import { callbackAnswer, WebhookError, type CallbackAnswer, type CallbackOptions } from '@x/webhooks';
import { decideCallback, settleWith, signedRequestAnswer, succeeded, withKeyCache, type VerifiedCallback } from '@x/webhooks/adapter';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { isTooLarge, readPayload } from './read.js';

// Per request, what the route's verification decided (a request decorator, null until then).
export const OUTCOME = Symbol('@x/fastify outcome');
// Per request, the opted-in route it is on (set by the route's preParsing hook).
export const ROUTE = Symbol('@x/fastify route');

/** A delivery to settle from the handler's outcome (with a replayStore). */
interface Delivery {
  settle: (ok: boolean) => void;
  failed: boolean;
}
/** Verified (no delivery to settle), refused with an answer, or a delivery in progress. */
export type Outcome = typeof VERIFIED | { answer: CallbackAnswer } | Delivery;
const VERIFIED = { verified: true } as const;

declare module 'fastify' {
  interface FastifyRequest {
    [OUTCOME]: Outcome | null;
    [ROUTE]: OptedRoute | null;
  }
}

/** Fastify's default JSON parser (from `getDefaultJsonParser`, with the instance's poisoning options). */
export type DefaultJsonParser = (request: FastifyRequest | null, body: string, done: Done) => void;
type Done = (error: Error | null, body?: unknown) => void;

/**
 * The verification of one kind of opted-in route: checks the raw bytes, decorates the request (or
 * records the answer), and calls back with the body for the handler: parsed as JSON when `json`.
 * Callback style, so that the parser's one pass costs one promise (the verifier's own).
 */
export interface RouteVerifier {
  mode: 'callback' | 'signed';
  verify(request: FastifyRequest, raw: Buffer, json: boolean, done: Done): void;
}

/** An opted-in route: its verifier and its body limit. */
export interface OptedRoute {
  verifier: RouteVerifier;
  limit: number;
}

/** Callback routes: one verifier (and one key cache) for every route of the plugin. */
export function callbackVerifier(options: CallbackOptions, parseJson: DefaultJsonParser): RouteVerifier {
  const verify: CallbackOptions = withKeyCache(options, nodeMac);
  const accept = (request: FastifyRequest, raw: Buffer, callback: VerifiedCallback | undefined, done: Done) => {
    if (!callback) return done(null, undefined); // refused: the answer is recorded for preValidation
    request.rawBody = raw;
    request.callback = callback.payload;
    request.callbackHeader = callback.header;
    request[OUTCOME] = verify.replayStore ? { settle: settleWith(callback, verify), failed: false } : VERIFIED;
    done(null, callback.payload);
  };
  // Without a replayStore, no promise: the verdict is known as soon as the bytes are.
  const check = (request: FastifyRequest, raw: Buffer, parsed: unknown, done: Done) => {
    let decided: ReturnType<typeof decideCallback>;
    try {
      decided = decideCallback({ headers: request.headers, parsed: () => parsed, respond: (answer) => void (request[OUTCOME] = { answer }) }, raw, verify);
    } catch (error) {
      return done(error as Error);
    }
    if (decided instanceof Promise) decided.then((callback) => accept(request, raw, callback, done), done);
    else accept(request, raw, decided, done);
  };
  return {
    mode: 'callback',
    verify(request, raw, json, done) {
      if (!json) return check(request, raw, undefined, done);
      // Parsed as Fastify parses JSON (poisoning checks included; a body that is not JSON is its 400),
      // once: the verifier uses this parse rather than its own.
      parseJson(request, raw.toString('utf8'), (error, parsed) => (error ? done(error) : check(request, raw, parsed, done)));
    },
  };
}

/** Signed-request routes: one verifier (and one bounded key cache for the credentials lookup). */
export function signedVerifier(options: VerifyOptions, parseJson: DefaultJsonParser): RouteVerifier {
  const verify: VerifyOptions = withKeyCache(options, nodeMac);
  return {
    mode: 'signed',
    verify(request, raw, json, done) {
      verifyRequest({ method: request.method, url: request.url, headers: request.headers, body: raw }, verify).then((result) => {
        if (!result.ok) {
          request[OUTCOME] = { answer: signedRequestAnswer(result) };
          return done(null, undefined);
        }
        request.rawBody = raw;
        request.customerId = result.customerId;
        request[OUTCOME] = VERIFIED;
        // Parsed only once verified: unverified bytes are never parsed.
        if (json) parseJson(request, raw.toString('utf8'), done);
        else done(null, undefined);
      }, done);
    },
  };
}

const BODYLESS = new Set(['GET', 'HEAD', 'TRACE']);

/**
 * Whether the plugin's JSON parser reads this request's body (Fastify parses bodies of these methods
 * by content type). The exact common header is answered without parsing it (`mediaType` parses the
 * header on each request).
 */
const readByParser = (request: FastifyRequest) =>
  !BODYLESS.has(request.method) && (request.headers['content-type'] === 'application/json' || request.mediaType === 'application/json');

const send = (reply: FastifyReply, answer: CallbackAnswer) => void reply.code(answer.status).headers(answer.headers).send(answer.body);

/**
 * The route-level hooks of an opted-in route (no global hook does any of this):
 * - preParsing: marks the request with its verifier, so the plugin's JSON parser verifies the
 *   bytes as it reads them (one pass, no stream replayed). A body Fastify does not parse (GET, HEAD)
 *   or parses with another parser (a form) is read and verified here instead, and handed to that
 *   parser (the one case where a copy of the stream is replayed).
 * - preValidation: answers a refused request (401 / 400 / 413, 200 duplicate, 503 in progress)
 *   before validation and the handler; ties a delivery to the client's connection.
 * - onError, onResponse (with a replayStore): settle the delivery from the handler's outcome.
 */
export function routeHooks(verifier: RouteVerifier, limit: number, replayStore: boolean) {
  const route: OptedRoute = { verifier, limit };
  function preParsing(request: FastifyRequest, reply: FastifyReply, payload: NodeJS.ReadableStream, done: (error: Error | null, payload?: NodeJS.ReadableStream) => void) {
    request[ROUTE] = route;
    if (readByParser(request)) return done(null, payload);
    readPayload(request, payload, limit, (error, raw) => {
      if (error) {
        if (!isTooLarge(error)) return done(error);
        reply.header('connection', 'close');
        return send(reply, callbackAnswer('body_too_large', { limit }));
      }
      verifier.verify(request, raw!, false, (failure) => {
        if (failure) return done(failure);
        const outcome = request[OUTCOME];
        if (outcome && 'answer' in outcome) return send(reply, outcome.answer);
        if (BODYLESS.has(request.method) || raw!.length === 0) return done(null, payload);
        // Another parser (e.g. a form parser) reads a copy of the verified bytes. A minimal stream, not Readable.from (slower).
        const replay = new Readable({ read() {} }) as Readable & { receivedEncodedLength?: number };
        replay.push(raw);
        replay.push(null);
        replay.receivedEncodedLength = raw!.length;
        done(null, replay);
      });
    });
  }

  function preValidation(request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) {
    const outcome = request[OUTCOME];
    if (outcome === null) return done(notVerified(request, verifier.mode));
    if ('answer' in outcome) {
      if (outcome.answer.status === 413) reply.header('connection', 'close');
      return send(reply, outcome.answer);
    }
    if ('settle' in outcome) {
      // Fastify's onRequestAbort does not fire once the body was read: watch the raw response.
      reply.raw.once('close', () => {
        if (!reply.raw.writableFinished) outcome.settle(false);
      });
    }
    done();
  }

  const hooks: { preParsing: typeof preParsing; preValidation: typeof preValidation; onError?: unknown; onResponse?: unknown } = { preParsing, preValidation };
  if (replayStore) {
    hooks.onError = (request: FastifyRequest, _reply: FastifyReply, _error: Error, done: () => void) => {
      const outcome = request[OUTCOME];
      if (outcome && 'settle' in outcome) outcome.failed = true;
      done();
    };
    hooks.onResponse = (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      const outcome = request[OUTCOME];
      if (outcome && 'settle' in outcome) outcome.settle(!outcome.failed && succeeded(reply.statusCode));
      done();
    };
  }
  return hooks;
}

/** The bytes of an opted-in route were never seen by the verifier: a JSON parser of your own replaced the plugin's. */
const notVerified = (request: FastifyRequest, mode: 'callback' | 'signed') =>
  new WebhookError(
    'not_verified',
    `@x/fastify: the ${mode === 'callback' ? 'callback' : 'signed request'} on ${request.method} ${request.url} was not verified: its body was parsed by a content-type parser ` +
      'that is not the plugin\'s (a JSON parser registered for a more specific content type, or after the plugin). Register your own parsers in an encapsulated context, not where the opted-in routes are.',
  );

/**
 * The plugin's JSON parser: on an opted-in route, reads the bytes once, verifies them and hands the
 * handler the verified body (no replayed stream, no second read); elsewhere, parses exactly as
 * Fastify's default JSON parser does (same limits, same errors, same poisoning options).
 */
export function jsonParser(defaultJson: DefaultJsonParser) {
  return (request: FastifyRequest, payload: NodeJS.ReadableStream, done: (error: Error | null, body?: unknown) => void) => {
    const route = request[ROUTE];
    const limit = route ? route.limit : request.routeOptions.bodyLimit!;
    readPayload(request, payload, limit, (error, raw) => {
      if (!route) {
        if (error) return done(error);
        return defaultJson(request, raw!.toString('utf8'), done);
      }
      if (error) {
        if (!isTooLarge(error)) return done(error);
        request[OUTCOME] = { answer: callbackAnswer('body_too_large', { limit }) };
        return done(null, undefined);
      }
      route.verifier.verify(request, raw!, true, done);
    });
  };
}

import { nodeMac } from '@x/auth/node';
import { callbackAnswer, DEFAULT_BODY_LIMIT, type CallbackFailure, type CallbackOptions } from '@x/webhooks';
import { decideCallback, settleWith, succeeded, withKeyCache, type CallbackExchange, type VerifiedCallback } from '@x/webhooks/adapter';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Common } from './common.js';
import { BodyTooLargeError, keptRawBody, readStream } from './raw-body.js';

export type CallbackMiddlewareOptions = CallbackOptions & Common;

// De-duplication answers are not errors: `onError` never turns them into something the service
// would misread (a 2xx for an in-progress copy would lose the update).
const NOT_ERRORS: ReadonlySet<CallbackFailure> = new Set(['duplicate', 'in_progress']);

/** req.body when it was parsed from exactly these raw bytes (by us or by a parser's verify hook). */
export const parsedFrom = (req: Request, raw: Uint8Array | string) =>
  req.rawBody === raw && typeof req.body === 'object' && req.body !== null && !(req.body instanceof Uint8Array) ? req.body : undefined;

/**
 * The outcome of the handler, read from the response: finished with 2xx => success; finished
 * otherwise (a 5xx from an error handler included), or closed before finishing (the client went
 * away) => failure.
 */
function watchResponse(res: Response, settle: (ok: boolean) => void) {
  res.once('finish', () => settle(succeeded(res.statusCode)));
  res.once('close', () => {
    if (!res.writableFinished) settle(false);
  });
}

/**
 * Verifies the service's callbacks on a route (it reads the raw bytes itself, or uses express.raw()'s
 * or those a global parser kept with `saveRawBody`), and sets `req.callback`. Answers
 * 401 / 400 / 413 when verification fails. With a `replayStore`, each status update is processed
 * exactly once: the delivery counts as done only when your handler answers 2xx; a 5xx, an error
 * passed to next(), or a dropped connection releases it for the service's retry. A copy arriving
 * meanwhile gets 503 + Retry-After; one after a success gets 200 `{ duplicate: true }`.
 *
 * @example
 * ```ts
 * import express from 'express';
 * import { createMemoryReplayStore } from '@x/auth';
 * import { verifyCallbacks } from '@x/express';
 *
 * const app = express();
 * app.post('/callbacks', verifyCallbacks({ customerId, apiKey, replayStore: createMemoryReplayStore() }), async (req, res) => {
 *   await db.saveStatus(req.callback); // 2xx completes the delivery; throw or 5xx: the retry is processed
 *   res.sendStatus(200);
 * });
 * ```
 */
export function verifyCallbacks(options: CallbackMiddlewareOptions): RequestHandler {
  // One key cache per middleware, its keys prepared with nodeMac unless options.mac says otherwise (see the README).
  const verify: CallbackOptions = withKeyCache(options, nodeMac);
  const limit = options.limit ?? DEFAULT_BODY_LIMIT;
  // One pass, without a promise where none is needed: the bytes a parser kept are verified at once;
  // a stream read costs one promise; only a replayStore's answer is awaited.
  return (req: Request, res: Response, next: NextFunction) => {
    let read = false;
    const exchange: Omit<CallbackExchange, 'readBody'> = {
      headers: req.headers,
      // Only a parser's req.body (saveRawBody) is reused: when this middleware read the stream, req.body
      // may be what a skipping parser left (Express 4's body-parser sets {}), so the bytes are parsed.
      parsed: (raw) => (read ? undefined : parsedFrom(req, raw)),
      respond(answer, reason) {
        if (options.onError && !NOT_ERRORS.has(reason)) return options.onError({ status: answer.status, body: answer.body, reason }, req, res, next);
        res.status(answer.status).set(answer.headers).json(answer.body);
      },
    };
    const proceed = (callback: VerifiedCallback | undefined) => {
      if (!callback) return;
      // The verified payload is req.body when this middleware read the bytes (parsed once, after verification).
      if (read) req.body = callback.payload;
      req.callback = callback.payload;
      req.callbackHeader = callback.header;
      if (options.replayStore) watchResponse(res, settleWith(callback, verify));
      next();
    };
    const decide = (raw: Uint8Array | string) => {
      let decided: ReturnType<typeof decideCallback>;
      try {
        decided = decideCallback(exchange, raw, verify);
      } catch (error) {
        return next(error);
      }
      if (decided instanceof Promise) decided.then(proceed, next);
      else proceed(decided);
    };

    let kept: Uint8Array | string | undefined;
    try {
      kept = keptRawBody(req);
    } catch (error) {
      return next(error);
    }
    if (kept !== undefined) return decide(kept);
    readStream(req, limit).then(
      (raw) => {
        read = true;
        decide(raw);
      },
      (error: unknown) => {
        if (error instanceof BodyTooLargeError) exchange.respond(callbackAnswer('body_too_large', { limit }), 'body_too_large');
        else next(error);
      },
    );
  };
}

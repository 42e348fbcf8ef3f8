import { DEFAULT_BODY_LIMIT, type CallbackOptions } from '@x/webhooks';
import { receiveCallback, settleWith, succeeded, withKeyCache } from '@x/webhooks/adapter';
import type { Request, RequestHandler, Response } from 'express';
import { exchangeOf } from './exchange.js';
import type { MiddlewareOptions } from './options.js';

export type CallbackMiddlewareOptions = CallbackOptions & MiddlewareOptions;

/** req.body when it was parsed from exactly these raw bytes (by a parser's verify hook). */
const parsedFrom = (req: Request, raw: Uint8Array | string) =>
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
  // One key cache per middleware (see the README).
  const verify: CallbackOptions = withKeyCache(options);
  const limit = options.limit ?? DEFAULT_BODY_LIMIT;
  return (req, res, next) => {
    const exchange = exchangeOf(req, res, next, options.onError);
    // A parser's req.body is reused (saveRawBody); when this middleware read the stream, req.body may
    // be what a skipping parser left (Express 4's body-parser sets {}), so the bytes are parsed.
    const parsed = (raw: Uint8Array | string) => (exchange.read ? undefined : parsedFrom(req, raw));
    receiveCallback({ ...exchange, parsed }, verify, limit).then((callback) => {
      if (!callback) return;
      // The verified payload is req.body when this middleware read the bytes (parsed once, after verification).
      if (exchange.read) req.body = callback.payload;
      req.callback = callback.payload;
      req.callbackHeader = callback.header;
      if (options.replayStore) watchResponse(res, settleWith(callback, verify));
      next();
    }, next);
  };
}

import { DEFAULT_BODY_LIMIT, type CallbackFailure, type CallbackOptions } from '@x/webhooks';
import { receiveCallback, settleWith, succeeded, type CallbackExchange } from '@x/webhooks/adapter';
import { nativeCallbackSignature } from '@x/webhooks/node';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Common } from './common.js';
import { readRawBody } from './raw-body.js';

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
 */
export function verifyCallbacks(options: CallbackMiddlewareOptions): RequestHandler {
  const verify = { signer: nativeCallbackSignature, ...options };
  const limit = options.limit ?? DEFAULT_BODY_LIMIT;
  return (req: Request, res: Response, next: NextFunction) => {
    const exchange: CallbackExchange = {
      readBody: (max) => readRawBody(req, max),
      headers: req.headers,
      parsed: (raw) => parsedFrom(req, raw),
      respond(answer, reason) {
        if (options.onError && !NOT_ERRORS.has(reason)) return options.onError({ status: answer.status, body: answer.body, reason }, req, res, next);
        res.status(answer.status).set(answer.headers).json(answer.body);
      },
    };
    receiveCallback(exchange, verify, limit).then((callback) => {
      if (!callback) return;
      req.callback = callback.payload;
      req.callbackHeader = callback.header;
      if (options.replayStore) watchResponse(res, settleWith(callback, verify));
      next();
    }, next);
  };
}

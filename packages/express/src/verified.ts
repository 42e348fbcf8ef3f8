import { WebhookError, type CallbackPayload } from '@x/webhooks';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/* eslint-disable @typescript-eslint/no-explicit-any -- the type parameters of Express's own Request, with its defaults (`any` bodies, as Express has) */
type Params = Request['params'];
type Query = Request['query'];
type Locals = Record<string, any>;

/** A request that `verifyCallbacks` verified: `req.callback` and `req.callbackHeader` are set. */
export type VerifiedCallbackRequest<P = Params, ResBody = any, ReqBody = any, ReqQuery = Query, L extends Locals = Locals> = Request<P, ResBody, ReqBody, ReqQuery, L> & {
  callback: CallbackPayload;
  callbackHeader: 'authorization' | 'x-ts-authorization';
};

/** A request that `verifySignedRequests` verified: `req.customerId` is set. */
export type VerifiedSignedRequest<P = Params, ResBody = any, ReqBody = any, ReqQuery = Query, L extends Locals = Locals> = Request<P, ResBody, ReqBody, ReqQuery, L> & {
  customerId: string;
};

/** Runs a handler, passing a thrown error or a rejected promise to next() (Express 4 does not for promises). */
function run(next: NextFunction, handler: () => unknown): void {
  try {
    const result = handler();
    if (result && typeof (result as PromiseLike<unknown>).then === 'function') (result as PromiseLike<unknown>).then(undefined, next);
  } catch (error) {
    next(error);
  }
}

/**
 * A route handler that sees the verified callback typed without `undefined`:
 * `app.post('/callbacks', verifyCallbacks(options), verifiedCallback((req, res) => ... req.callback ...))`.
 * Mounted without `verifyCallbacks` in front of it, it never runs: a `WebhookError('not_verified')`
 * goes to next(). Errors it throws or rejects with go to next() too (Express 4 included).
 *
 * @example
 * ```ts
 * import express from 'express';
 * import { verifiedCallback, verifyCallbacks } from '@x/express';
 *
 * const app = express();
 * app.post('/callbacks', verifyCallbacks({ customerId, apiKey }), verifiedCallback(async (req, res) => {
 *   await db.saveStatus(req.callback.reference_id); // CallbackPayload, no `!`
 *   res.sendStatus(200);
 * }));
 * ```
 */
export function verifiedCallback<P = Params, ResBody = any, ReqBody = any, ReqQuery = Query, L extends Locals = Locals>(
  handler: (req: VerifiedCallbackRequest<P, ResBody, ReqBody, ReqQuery, L>, res: Response<ResBody, L>, next: NextFunction) => unknown,
): RequestHandler<P, ResBody, ReqBody, ReqQuery, L> {
  return (req, res, next) => {
    if (req.callback === undefined || req.callbackHeader === undefined) {
      return next(
        new WebhookError(
          'not_verified',
          `${req.method} ${req.originalUrl}: this handler needs a verified callback, but verifyCallbacks(options) did not run before it. ` +
            'Mount it first on the route: app.post(path, verifyCallbacks(options), verifiedCallback(handler)).',
        ),
      );
    }
    run(next, () => handler(req as VerifiedCallbackRequest<P, ResBody, ReqBody, ReqQuery, L>, res, next));
  };
}

/**
 * A route handler that sees the verified customer typed without `undefined`:
 * `app.post('/v1/messaging', verifySignedRequests(options), verifiedRequest((req, res) => ... req.customerId ...))`.
 * Mounted without `verifySignedRequests` in front of it, it never runs: a `WebhookError('not_verified')`
 * goes to next().
 *
 * @example
 * ```ts
 * import express from 'express';
 * import { verifiedRequest, verifySignedRequests } from '@x/express';
 *
 * const app = express();
 * app.get('/v1/messaging/:id', verifySignedRequests({ credentials: lookup }), verifiedRequest((req, res) => {
 *   res.json({ customer: req.customerId }); // string
 * }));
 * ```
 */
export function verifiedRequest<P = Params, ResBody = any, ReqBody = any, ReqQuery = Query, L extends Locals = Locals>(
  handler: (req: VerifiedSignedRequest<P, ResBody, ReqBody, ReqQuery, L>, res: Response<ResBody, L>, next: NextFunction) => unknown,
): RequestHandler<P, ResBody, ReqBody, ReqQuery, L> {
  return (req, res, next) => {
    if (req.customerId === undefined) {
      return next(
        new WebhookError(
          'not_verified',
          `${req.method} ${req.originalUrl}: this handler needs a verified customer, but verifySignedRequests(options) did not run before it. ` +
            'Mount it first on the route: app.post(path, verifySignedRequests(options), verifiedRequest(handler)).',
        ),
      );
    }
    run(next, () => handler(req as VerifiedSignedRequest<P, ResBody, ReqBody, ReqQuery, L>, res, next));
  };
}

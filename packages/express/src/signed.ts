import type { ReplayStore, VerifyOptions } from '@x/auth';
import { nodeMac } from '@x/auth/node';
import { DEFAULT_BODY_LIMIT } from '@x/webhooks';
import { receiveSignedRequest, type SignedRequestExchange } from '@x/webhooks/adapter';
import type { RequestHandler } from 'express';
import type { Common } from './common.js';
import { readRawBody } from './raw-body.js';

export type SignedRequestMiddlewareOptions = Omit<VerifyOptions, 'replayStore'> & Common & { replayStore?: ReplayStore | undefined };

/** Verifies requests signed as the service requires (Digest and/or Basic); sets `req.customerId`; 401 as the service answers. */
export function verifySignedRequests(options: SignedRequestMiddlewareOptions): RequestHandler {
  const verify = { mac: nodeMac, ...options };
  const limit = options.limit ?? DEFAULT_BODY_LIMIT;
  return (req, res, next) => {
    const exchange: SignedRequestExchange = {
      method: req.method,
      url: req.originalUrl,
      headers: req.headers,
      readBody: (max) => readRawBody(req, max),
      respond(answer, reason) {
        if (options.onError) return options.onError({ status: answer.status, body: answer.body, reason }, req, res, next);
        res.status(answer.status).set(answer.headers).json(answer.body);
      },
    };
    receiveSignedRequest(exchange, verify, limit).then((verified) => {
      if (!verified) return;
      req.customerId = verified.customerId;
      next();
    }, next);
  };
}

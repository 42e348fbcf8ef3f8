import type { ReplayStore, VerifyOptions } from '@x/auth';
import { DEFAULT_BODY_LIMIT } from '@x/webhooks';
import { receiveSignedRequest, withKeyCache } from '@x/webhooks/adapter';
import type { RequestHandler } from 'express';
import { exchangeOf } from './exchange.js';
import type { MiddlewareOptions } from './options.js';
import { parseVerifiedBody } from './raw-body.js';

export type SignedRequestMiddlewareOptions = Omit<VerifyOptions, 'replayStore'> & MiddlewareOptions & { replayStore?: ReplayStore | undefined };

/**
 * Verifies requests signed as the service requires (Digest and/or Basic); sets `req.customerId`; 401 as the service answers.
 *
 * @example
 * ```ts
 * import express from 'express';
 * import { createMemoryReplayStore } from '@x/auth';
 * import { verifySignedRequests } from '@x/express';
 *
 * const app = express();
 * app.use('/v1', verifySignedRequests({ credentials: lookup, replayStore: createMemoryReplayStore() }));
 * app.get('/v1/messaging/:id', (req, res) => void res.json({ customer: req.customerId }));
 * ```
 */
export function verifySignedRequests(options: SignedRequestMiddlewareOptions): RequestHandler {
  // One key cache per middleware, bounded (an LRU of 64 keys): keys from the credentials lookup are prepared once.
  const verify: VerifyOptions = withKeyCache(options);
  const limit = options.limit ?? DEFAULT_BODY_LIMIT;
  return (req, res, next) => {
    const exchange = exchangeOf(req, res, next, options.onError);
    receiveSignedRequest({ ...exchange, method: req.method, url: req.originalUrl }, verify, limit).then((verified) => {
      if (!verified) return;
      if (exchange.read) parseVerifiedBody(req, exchange.read);
      req.customerId = verified.customerId;
      next();
    }, next);
  };
}

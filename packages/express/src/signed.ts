import type { ReplayStore, VerifyOptions } from '@x/auth';
import { nodeMac } from '@x/auth/node';
import { DEFAULT_BODY_LIMIT } from '@x/webhooks';
import { receiveSignedRequest, withKeyCache, type SignedRequestExchange } from '@x/webhooks/adapter';
import type { RequestHandler } from 'express';
import type { Common } from './common.js';
import { parseVerifiedBody, readRawBody } from './raw-body.js';

export type SignedRequestMiddlewareOptions = Omit<VerifyOptions, 'replayStore'> & Common & { replayStore?: ReplayStore | undefined };

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
  const verify: VerifyOptions = withKeyCache(options, nodeMac);
  const limit = options.limit ?? DEFAULT_BODY_LIMIT;
  return (req, res, next) => {
    let read: Uint8Array | undefined;
    const exchange: SignedRequestExchange = {
      method: req.method,
      url: req.originalUrl,
      headers: req.headers,
      readBody: async (max) => {
        const { raw, read: ours } = await readRawBody(req, max);
        if (ours) read = raw as Uint8Array;
        return raw;
      },
      respond(answer, reason) {
        if (options.onError) return options.onError({ status: answer.status, body: answer.body, reason }, req, res, next);
        res.status(answer.status).set(answer.headers).json(answer.body);
      },
    };
    receiveSignedRequest(exchange, verify, limit).then((verified) => {
      if (!verified) return;
      if (read) parseVerifiedBody(req, read);
      req.customerId = verified.customerId;
      next();
    }, next);
  };
}

import type { ReplayStore, VerifyOptions } from '@x/auth';
import { nodeMac } from '@x/auth/node';
import { DEFAULT_BODY_LIMIT, signedRequestOutcome, tooLarge, type AdapterOutcome } from '@x/webhooks';
import { BodyTooLargeError } from '@x/webhooks/node';
import type { RequestHandler } from 'express';
import type { Common } from './common.js';
import { readRawBody } from './raw-body.js';

export type SignedRequestMiddlewareOptions = Omit<VerifyOptions, 'replayStore'> & Common & { replayStore?: ReplayStore };

/** Verifies requests signed as the service requires (Digest and/or Basic); sets `req.customerId`; 401 as the service answers. */
export function verifySignedRequests(options: SignedRequestMiddlewareOptions): RequestHandler {
  const verify = { mac: nodeMac, ...options };
  const limit = options.limit ?? DEFAULT_BODY_LIMIT;
  return (req, res, next) => {
    const decide = async (): Promise<AdapterOutcome<{ customerId: string }>> => {
      let raw: Uint8Array | string;
      try {
        raw = await readRawBody(req, limit);
      } catch (error) {
        if (error instanceof BodyTooLargeError) return tooLarge(limit);
        throw error;
      }
      return signedRequestOutcome({ method: req.method, url: req.originalUrl, headers: req.headers, body: raw }, verify);
    };
    decide().then((outcome) => {
      if (outcome.ok) {
        req.customerId = outcome.value.customerId;
        return next();
      }
      if (options.onError) return options.onError({ status: outcome.status, body: outcome.body }, req, res, next);
      res.status(outcome.status).json(outcome.body);
    }, next);
  };
}

import type { CallbackAnswer } from '@x/webhooks';
import { verificationFailure } from '@x/webhooks/adapter';
import type { NextFunction, Request, Response } from 'express';
import type { MiddlewareOptions } from './options.js';
import { keptRawBody, readStream } from './raw-body.js';

/** One request's I/O for the core of @x/webhooks/adapter: the raw body, its headers, the answer. */
export interface ExpressExchange {
  headers: Request['headers'];
  /** The raw body, without reading anything twice: what a parser kept (`keptRawBody`), else the stream. */
  readBody(limit: number): Promise<Uint8Array | string>;
  /** Writes the answer of a request that does not reach the handler: `onError`'s, or the core's JSON. */
  respond(answer: CallbackAnswer, reason: string): void;
  /** The bytes this middleware read from the stream (then req.body is its to set); undefined when a parser kept them. */
  readonly read: Uint8Array | undefined;
}

/** The exchange of one request: `read` is set when this middleware read the stream itself. */
export function exchangeOf(req: Request, res: Response, next: NextFunction, onError: MiddlewareOptions['onError']): ExpressExchange {
  const exchange: { -readonly [K in keyof ExpressExchange]: ExpressExchange[K] } = {
    headers: req.headers,
    read: undefined,
    readBody: async (limit) => keptRawBody(req) ?? (exchange.read = await readStream(req, limit)),
    respond: (answer, reason) => {
      const failure = onError && verificationFailure(answer, reason);
      if (failure) return onError!(failure, req, res, next);
      res.status(answer.status).set(answer.headers).json(answer.body);
    },
  };
  return exchange;
}

import type { CallbackAnswer } from '@x/webhooks';
import { verificationFailure } from '@x/webhooks/adapter';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { readHonoBody } from './body.js';
import type { MiddlewareOptions } from './options.js';

/** One request's I/O for the core of @x/webhooks/adapter: the raw body, its headers, the answer. */
export interface HonoExchange {
  headers: Headers;
  /** The raw body, read once (`readHonoBody`). */
  readBody(limit: number): Promise<Uint8Array | string>;
  /** Records the answer of a request that does not reach the handler: `onError`'s, or the core's JSON. */
  respond(answer: CallbackAnswer, reason: string): void;
  /** The answer `respond` recorded, for the middleware to return. */
  readonly answer: Response | Promise<Response> | undefined;
}

/** The exchange of one request: `answer` is set by `respond`. */
export function exchangeOf(c: Context, onError: MiddlewareOptions['onError']): HonoExchange {
  const exchange: { -readonly [K in keyof HonoExchange]: HonoExchange[K] } = {
    headers: c.req.raw.headers,
    answer: undefined,
    readBody: (limit) => readHonoBody(c.req, limit),
    respond: (refusal, reason) => {
      const failure = onError && verificationFailure(refusal, reason);
      exchange.answer = failure ? onError!(failure, c) : c.json(refusal.body, refusal.status as ContentfulStatusCode, refusal.headers);
    },
  };
  return exchange;
}

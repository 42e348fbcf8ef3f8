import type { ReplayStore, VerifyOptions } from '@x/auth';
import { DEFAULT_BODY_LIMIT } from '@x/webhooks';
import { receiveSignedRequest } from '@x/webhooks/adapter';
import type { Env, MiddlewareHandler } from 'hono';
import { exchangeOf } from './exchange.js';
import { resolverOf, type MiddlewareOptions, type OptionsOrFactory } from './options.js';

export type SignedRequestMiddlewareOptions = Omit<VerifyOptions, 'replayStore'> & MiddlewareOptions & { replayStore?: ReplayStore | undefined };

/** What `verifySignedRequests` sets: `c.get('customerId')`. */
export interface SignedRequestVariables {
  /** The verified customer (as `credentials` returned it). */
  customerId: string;
}
/** The Hono environment of a signed-request route. */
export interface SignedRequestEnv {
  Variables: SignedRequestVariables;
}

/**
 * Verifies requests signed as the service requires (Digest and/or Basic) over the raw body and
 * the request target; sets `c.get('customerId')`; answers 401 with the service's error body (413
 * over `limit`). `options` may be a function of the Context.
 *
 * @example
 * ```ts
 * import { Hono } from 'hono';
 * import { verifySignedRequests } from '@x/hono';
 *
 * const app = new Hono();
 * app.get('/v1/messaging/:id', verifySignedRequests({ credentials: lookup }), (c) => c.json({ customer: c.get('customerId') }));
 * ```
 */
// `any` by default: c.env untyped unless the app's Env is given (Hono's own default).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function verifySignedRequests<E extends Env = any>(optionsOrFactory: OptionsOrFactory<SignedRequestMiddlewareOptions, E>): MiddlewareHandler<SignedRequestEnv> {
  const resolve = resolverOf(optionsOrFactory);
  return async (c, next) => {
    const options = resolve(c);
    const exchange = exchangeOf(c, options.onError);
    const verified = await receiveSignedRequest({ ...exchange, method: c.req.method, url: c.req.url }, options, options.limit ?? DEFAULT_BODY_LIMIT);
    if (!verified) return exchange.answer;
    c.set('customerId', verified.customerId);
    await next();
  };
}

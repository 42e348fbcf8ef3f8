import { DEFAULT_BODY_LIMIT, type CallbackOptions, type CallbackPayload } from '@x/webhooks';
import { receiveCallback, settleWith, succeeded } from '@x/webhooks/adapter';
import type { Context, Env, MiddlewareHandler, Next } from 'hono';
import { exchangeOf } from './exchange.js';
import { resolverOf, type MiddlewareOptions, type OptionsOrFactory } from './options.js';

export type CallbackMiddlewareOptions = CallbackOptions & MiddlewareOptions;

/** What `verifyCallbacks` sets: `c.get('callback')`, `c.get('callbackHeader')` (or `c.var.*`). */
export interface CallbackVariables {
  /** The verified callback payload. */
  callback: CallbackPayload;
  /** Which header verified it; `x-ts-authorization` means the retiring header was all there was. */
  callbackHeader: 'authorization' | 'x-ts-authorization';
}
/** The Hono environment of a callback route: `new Hono<CallbackEnv>()`, or inferred from the middleware on the route. */
export interface CallbackEnv {
  Variables: CallbackVariables;
}

/**
 * Runs the rest of the chain and settles the delivery from its outcome. Hono's compose catches an
 * Error thrown downstream and turns it into `c.res` through the app's error handler (its own or
 * Hono's default 500) before `next()` returns, leaving it in `c.error`: so a failure is `c.error`
 * set (whatever status the error handler answered), a non-2xx `c.res`, something thrown through
 * `next()` (rethrown), or the client going away first (the request's signal aborts).
 */
async function settleAround(c: Context, next: Next, settle: (ok: boolean) => void): Promise<void> {
  const signal = c.req.raw.signal as AbortSignal | undefined;
  const dropped = () => settle(false);
  if (signal?.aborted) dropped();
  signal?.addEventListener('abort', dropped, { once: true });
  try {
    await next();
  } catch (error) {
    settle(false);
    throw error;
  } finally {
    signal?.removeEventListener('abort', dropped);
  }
  settle(c.error === undefined && succeeded(c.res.status));
}

/**
 * Verifies the service's callbacks (over the raw bytes) and sets `c.get('callback')`. Answers
 * 401 / 400 / 413 when verification fails. With a `replayStore`, each status update is processed
 * exactly once: the delivery is done only when the handler answered 2xx without an error; a
 * non-2xx answer, a thrown error (even one your `app.onError` answers 2xx) or a client gone
 * mid-handler releases it for the service's retry. A copy arriving meanwhile gets 503 +
 * Retry-After; one after a success gets 200 `{ duplicate: true }`.
 *
 * `options` may be a function of the Context (`(c) => ({ customerId: c.env.CUSTOMER_ID, ... })`).
 *
 * @example
 * ```ts
 * import { Hono } from 'hono';
 * import { createMemoryReplayStore } from '@x/auth';
 * import { verifyCallbacks } from '@x/hono';
 *
 * const app = new Hono();
 * app.post('/callbacks', verifyCallbacks({ customerId, apiKey, replayStore: createMemoryReplayStore() }), async (c) => {
 *   await db.saveStatus(c.get('callback')); // CallbackPayload
 *   return c.json({ ok: true });
 * });
 * ```
 */
// `any` by default: c.env untyped unless the app's Env is given (Hono's own default).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function verifyCallbacks<E extends Env = any>(optionsOrFactory: OptionsOrFactory<CallbackMiddlewareOptions, E>): MiddlewareHandler<CallbackEnv> {
  const resolve = resolverOf(optionsOrFactory);
  return async (c, next) => {
    const options = resolve(c);
    const exchange = exchangeOf(c, options.onError);
    const callback = await receiveCallback(exchange, options, options.limit ?? DEFAULT_BODY_LIMIT);
    if (!callback) return exchange.answer;
    c.set('callback', callback.payload);
    c.set('callbackHeader', callback.header);
    if (options.replayStore) await settleAround(c, next, settleWith(callback, options));
    else await next();
  };
}

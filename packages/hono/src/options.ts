import { createKeyCache, type KeyCache, type MacProvider } from '@x/auth';
import type { Context, Env } from 'hono';
import type { VerificationFailure } from '@x/webhooks/adapter';

export type { VerificationFailure };

/** The options both middlewares of this package take, besides those of the verification itself. */
export interface MiddlewareOptions {
  /** Largest body read, in bytes. Default 100 KiB; larger bodies get 413. */
  limit?: number | undefined;
  /**
   * Answers instead of the default JSON when verification fails (not for a callback's 200 duplicate
   * or 503 in progress, which are not errors).
   */
  onError?: ((failure: VerificationFailure, c: Context) => Response | Promise<Response>) | undefined;
}

/**
 * Options, or a function of the request's Context that gives them (on Workers, where secrets are
 * in `c.env`). Pass the app's Env as the type argument to type `c.env`.
 */
export type OptionsOrFactory<T, E extends Env> = T | ((c: Context<E>) => T);

/**
 * The options of each request, with the middleware's own key cache unless they bring one: each key
 * is decoded and its HMAC prepared once per middleware (a bounded LRU, so keys that change per
 * request, from c.env or a credentials lookup, never grow it without bound), nothing at module level.
 * Static options are completed once; a factory's, per request.
 */
export function resolverOf<T extends { mac?: MacProvider | undefined; keyCache?: KeyCache | undefined }, E extends Env>(options: OptionsOrFactory<T, E>): (c: Context) => T {
  let cache: KeyCache | undefined;
  // Any provider gives the same signatures: the cache prepares with the `mac` of the first options it sees.
  const owned = (given: T): T => (given.keyCache ? given : { ...given, keyCache: (cache ??= createKeyCache({ mac: given.mac })) });
  if (typeof options !== 'function') {
    const fixed = owned(options);
    return () => fixed;
  }
  return (c) => owned(options(c as Context<E>));
}

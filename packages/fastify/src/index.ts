/**
 * Fastify 5 plugin: verified callbacks and signed-request verification, per route.
 *
 * @packageDocumentation
 * @module @x/fastify
 */
import type { ReplayStore, VerifyOptions } from '@x/auth';
import { WebhookError, type CallbackOptions, type CallbackPayload } from '@x/webhooks';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { missingOptions } from './errors.js';
import { callbackHooks, RAW, signedHooks, STATE } from './route.js';

/** `T` on routes whose config says `flag: true` (then the plugin has set it), `T | null` elsewhere. */
type OnOptedIn<ContextConfig, Flag extends string, T> = ContextConfig extends { [K in Flag]: true } ? T : T | null;

declare module 'fastify' {
  // The same type parameters as Fastify's own declaration: the route's config (`ContextConfig`,
  // inferred from `{ config: { xCallback: true } }`) decides whether the decorators can be null.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- merged declarations repeat every type parameter
  interface FastifyRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, TypeProvider, ContextConfig, Logger, RequestType> {
    /**
     * The verified callback payload. Typed without `null` on routes declared with
     * `config: { xCallback: true }` (their handler never runs without one); `null` elsewhere.
     */
    callback: OnOptedIn<ContextConfig, 'xCallback', CallbackPayload>;
    /** Which header verified it. */
    callbackHeader: OnOptedIn<ContextConfig, 'xCallback', 'authorization' | 'x-ts-authorization'>;
    /** The verified customer. Typed without `null` on routes declared with `config: { xSignedRequest: true }`. */
    customerId: OnOptedIn<ContextConfig, 'xSignedRequest', string>;
    /** The raw body bytes, on opted-in routes. */
    rawBody: ContextConfig extends { xCallback: true } | { xSignedRequest: true } ? Uint8Array : Uint8Array | null;
  }
  interface FastifyContextConfig {
    /** Verify this route's requests as the service's callbacks. */
    xCallback?: boolean;
    /** Verify this route's requests as signed requests (Digest and/or Basic). */
    xSignedRequest?: boolean;
  }
}

export interface XFastifyOptions {
  /** Enables callback verification (routes opt in with `config.xCallback` or `callbackRoutes`). */
  callbacks?: CallbackOptions | undefined;
  /** Enables signed-request verification (routes opt in with `config.xSignedRequest` or `signedRoutes`). */
  signedRequests?: (Omit<VerifyOptions, 'replayStore'> & { replayStore?: ReplayStore | undefined }) | undefined;
  /** URLs (route patterns) that verify callbacks without `config` (their handlers see `request.callback` typed with `null`). */
  callbackRoutes?: string[] | undefined;
  /** URLs (route patterns) that verify signed requests without `config`. */
  signedRoutes?: string[] | undefined;
}

const plugin: FastifyPluginAsync<XFastifyOptions> = async (fastify, options) => {
  // Decorators up front, with the shape they will have.
  fastify.decorateRequest('callback', null);
  fastify.decorateRequest('callbackHeader', null);
  fastify.decorateRequest('customerId', null);
  fastify.decorateRequest(RAW as unknown as string, null);
  // The raw body's bytes, encoded when read from text a parser decoded (most handlers never read it).
  fastify.decorateRequest('rawBody', {
    getter(this: FastifyRequest) {
      const raw = this[RAW];
      return typeof raw === 'string' ? (this[RAW] = Buffer.from(raw)) : raw;
    },
    // Still assignable, as a plain decorator was (a hook of the application may set it).
    setter(this: FastifyRequest, value: Uint8Array | null) {
      this[RAW] = value;
    },
  });
  fastify.decorateRequest(STATE as unknown as string, null);

  const callbackRoutes = new Set(options.callbackRoutes ?? []);
  const signedRoutes = new Set(options.signedRoutes ?? []);
  // A route that opts in without the options it needs fails now, not at its first request.
  if (!options.callbacks && callbackRoutes.size > 0) throw missingOptions('callback', [...callbackRoutes].join(', '));
  if (!options.signedRequests && signedRoutes.size > 0) throw missingOptions('signed', [...signedRoutes].join(', '));

  // One verifier (and one key cache) per kind of route, created once. The context's content-type
  // parsers stay as they are: opted-in routes are verified by their own hooks.
  const callbacks = options.callbacks && callbackHooks(options.callbacks);
  const signed = options.signedRequests && signedHooks(options.signedRequests);

  const modeOf = (config: RouteConfig | undefined, url: string): Mode => {
    if (config?.xCallback || callbackRoutes.has(url)) return 'callback';
    if (config?.xSignedRequest || signedRoutes.has(url)) return 'signed';
    return undefined;
  };
  // Opted-in routes get route-level hooks; other routes get nothing.
  fastify.addHook('onRoute', function (route) {
    const config = route.config as RouteConfig | undefined;
    const mode = modeOf(config, route.url);
    if (!mode) return;
    const verifier = mode === 'callback' ? callbacks : signed;
    if (!verifier) throw missingOptions(mode, `${String(route.method)} ${route.url}`);
    const hooks = verifier(route.bodyLimit ?? this.initialConfig.bodyLimit ?? 1_048_576);
    const mutable = route as unknown as Record<string, unknown>;
    for (const [name, hook] of Object.entries(hooks)) {
      const existing = mutable[name];
      // Ours first: nothing of the route runs on a body before it is verified.
      mutable[name] = existing === undefined ? [hook] : [hook, ...(Array.isArray(existing) ? existing : [existing])];
    }
    route.config = { ...config, [WIRED]: true } as typeof route.config;
  });

  // A route declared BEFORE the plugin loaded (e.g. after a register() that was not awaited) never
  // saw onRoute: refuse its requests rather than run them unverified. Sync, and only installed when
  // routes exist already (an unknown answer from printRoutes installs it too).
  if (fastify.printRoutes() !== '(empty tree)') fastify.addHook('onRequest', (request, _reply, done) => {
    const { config, url = '' } = request.routeOptions as { config: RouteConfig | undefined; url?: string };
    const mode = modeOf(config, url);
    if (!mode || config?.[WIRED]) return done();
    const route = `${request.method} ${url || request.url}`;
    if (!(mode === 'callback' ? callbacks : signed)) return done(missingOptions(mode, route));
    done(
      new WebhookError(
        'not_verified',
        `@x/fastify: the route ${route} opts in to verification but was declared before the plugin was registered, so it was never wired. Register the plugin first (await app.register(xVerification, ...)), then declare the route.`,
      ),
    );
  });
};

type Mode = 'callback' | 'signed' | undefined;
type RouteConfig = { xCallback?: boolean; xSignedRequest?: boolean; [WIRED]?: boolean };
const WIRED = Symbol('@x/fastify wired');

/**
 * Fastify plugin: verified callbacks and signed requests, opt-in per route.
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * import { xVerification } from '@x/fastify';
 *
 * const app = Fastify();
 * await app.register(xVerification, { callbacks: { customerId, apiKey } });
 * app.post('/callbacks', { config: { xCallback: true } }, async (request) => request.callback.reference_id);
 * ```
 */
export const xVerification = fp(plugin, { fastify: '5.x', name: '@x/fastify' });
export default xVerification;

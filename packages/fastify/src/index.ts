import type { ReplayStore, VerifyOptions } from '@x/auth';
import { nodeMac } from '@x/auth/node';
import type { CallbackOptions, CallbackPayload } from '@x/webhooks';
import { nativeCallbackSignature } from '@x/webhooks/node';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { callbackHooks } from './callbacks.js';
import { missingOptions } from './errors.js';
import { captureRawBody, type Mode } from './raw-body.js';
import { signedRequestHook } from './signed.js';

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
  fastify.decorateRequest('rawBody', null);

  const callbackRoutes = new Set(options.callbackRoutes ?? []);
  const signedRoutes = new Set(options.signedRoutes ?? []);
  // A route that opts in without the options it needs fails now, not at its first request.
  if (!options.callbacks && callbackRoutes.size > 0) throw missingOptions('callback', [...callbackRoutes].join(', '));
  if (!options.signedRequests && signedRoutes.size > 0) throw missingOptions('signed', [...signedRoutes].join(', '));
  fastify.addHook('onRoute', (route) => {
    const config = route.config as { xCallback?: boolean; xSignedRequest?: boolean } | undefined;
    const name = `${String(route.method)} ${route.url}`;
    if (config?.xCallback && !options.callbacks) throw missingOptions('callback', name);
    if (config?.xSignedRequest && !options.signedRequests) throw missingOptions('signed', name);
  });
  const modeOf = (request: FastifyRequest): Mode => {
    const config = request.routeOptions.config;
    const url = request.routeOptions.url ?? '';
    if (config?.xCallback || callbackRoutes.has(url)) return 'callback';
    if (config?.xSignedRequest || signedRoutes.has(url)) return 'signed';
    return undefined;
  };

  // Read: the raw bytes of opted-in routes (one 413 answer), handed back to Fastify to parse.
  fastify.addHook('preParsing', captureRawBody(modeOf, fastify.initialConfig.bodyLimit));
  // Decide and respond: callbacks, with their delivery tied to the handler's outcome.
  const callbacks = options.callbacks && { signer: nativeCallbackSignature, ...options.callbacks };
  const onCallback = callbackHooks(fastify, callbacks);
  const onSigned = signedRequestHook(options.signedRequests && { mac: nodeMac, ...options.signedRequests });
  fastify.addHook('preHandler', async (request, reply) => {
    const mode = modeOf(request);
    if (mode === 'callback') return onCallback(request, reply);
    if (mode === 'signed') return onSigned(request, reply);
  });
};

/** Fastify plugin: verified callbacks and signed requests, opt-in per route. */
export const xVerification = fp(plugin, { fastify: '5.x', name: '@x/fastify' });
export default xVerification;

import type { ReplayStore, VerifyOptions } from '@x/auth';
import { nodeMac } from '@x/auth/node';
import type { CallbackOptions, CallbackPayload } from '@x/webhooks';
import { nativeCallbackSignature } from '@x/webhooks/node';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { callbackHooks } from './callbacks.js';
import { captureRawBody } from './raw-body.js';
import { signedRequestHook } from './signed.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified callback payload, on routes with `config: { xCallback: true }`. */
    callback: CallbackPayload | null;
    /** Which header verified it. */
    callbackHeader: 'authorization' | 'x-ts-authorization' | null;
    /** The verified customer, on routes with `config: { xSignedRequest: true }`. */
    customerId: string | null;
    /** The raw body bytes, on opted-in routes. */
    rawBody: Uint8Array | null;
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
  callbacks?: CallbackOptions;
  /** Enables signed-request verification (routes opt in with `config.xSignedRequest` or `signedRoutes`). */
  signedRequests?: Omit<VerifyOptions, 'replayStore'> & { replayStore?: ReplayStore };
  /** URLs (route patterns) that verify callbacks without `config`. */
  callbackRoutes?: string[];
  /** URLs (route patterns) that verify signed requests without `config`. */
  signedRoutes?: string[];
}

export type Mode = 'callback' | 'signed' | undefined;

const plugin: FastifyPluginAsync<XFastifyOptions> = async (fastify, options) => {
  // Decorators up front, with the shape they will have.
  fastify.decorateRequest('callback', null);
  fastify.decorateRequest('callbackHeader', null);
  fastify.decorateRequest('customerId', null);
  fastify.decorateRequest('rawBody', null);

  const callbackRoutes = new Set(options.callbackRoutes ?? []);
  const signedRoutes = new Set(options.signedRoutes ?? []);
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

import type { ReplayStore, VerifyOptions } from '@x/auth';
import { callbackOutcome, signedRequestOutcome, type AdapterOutcome, type CallbackOptions, type CallbackPayload } from '@x/webhooks';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { nodeMac } from '@x/auth/node';
import { BodyTooLargeError, collect, nativeCallbackSignature } from '@x/webhooks/node';
import fp from 'fastify-plugin';
import { Readable } from 'node:stream';

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

type Mode = 'callback' | 'signed' | undefined;

const plugin: FastifyPluginAsync<XFastifyOptions> = async (fastify, options) => {
  // Decorators up front, with the shape they will have.
  fastify.decorateRequest('callback', null);
  fastify.decorateRequest('callbackHeader', null);
  fastify.decorateRequest('customerId', null);
  fastify.decorateRequest('rawBody', null);

  const callbacks = options.callbacks && { signer: nativeCallbackSignature, ...options.callbacks };
  const signedRequests = options.signedRequests && { mac: nodeMac, ...options.signedRequests };
  const callbackRoutes = new Set(options.callbackRoutes ?? []);
  const signedRoutes = new Set(options.signedRoutes ?? []);
  const modeOf = (request: FastifyRequest): Mode => {
    const config = request.routeOptions.config;
    const url = request.routeOptions.url ?? '';
    if (config?.xCallback || callbackRoutes.has(url)) return 'callback';
    if (config?.xSignedRequest || signedRoutes.has(url)) return 'signed';
    return undefined;
  };

  // Keep the raw bytes of opted-in routes, then hand Fastify the same bytes to parse as usual.
  fastify.addHook('preParsing', async (request, _reply, payload) => {
    if (!modeOf(request)) return payload;
    const limit = request.routeOptions.bodyLimit ?? fastify.initialConfig.bodyLimit ?? 1_048_576;
    let raw: Uint8Array;
    try {
      raw = await collect(payload, limit);
    } catch (cause) {
      if (!(cause instanceof BodyTooLargeError)) throw cause;
      const error = new Error(`The body is larger than ${limit} bytes.`) as Error & { statusCode: number; code: string };
      error.statusCode = 413;
      error.code = 'FST_ERR_CTP_BODY_TOO_LARGE';
      throw error;
    }
    request.rawBody = raw;
    // Hand Fastify the same bytes to parse as usual: a minimal stream, not Readable.from (slower).
    const replay = new Readable({ read() {} }) as Readable & { receivedEncodedLength?: number };
    replay.push(raw);
    replay.push(null);
    replay.receivedEncodedLength = raw.length;
    return replay;
  });

  const send = (reply: FastifyReply, outcome: Extract<AdapterOutcome<unknown>, { ok: false }>) => reply.code(outcome.status).send(outcome.body);

  fastify.addHook('preHandler', async (request, reply) => {
    const mode = modeOf(request);
    if (mode === 'callback') {
      if (!callbacks) throw new Error('@x/fastify: a route asks for callback verification but the plugin has no `callbacks` options.');
      // Fastify parsed request.body from the same bytes: reuse it rather than parse twice.
      const parsed = typeof request.body === 'object' && request.body !== null ? request.body : undefined;
      const outcome = await callbackOutcome(request.rawBody ?? new Uint8Array(), request.headers, callbacks, parsed);
      if (!outcome.ok) return send(reply, outcome);
      request.callback = outcome.value.payload;
      request.callbackHeader = outcome.value.header;
    } else if (mode === 'signed') {
      if (!signedRequests) throw new Error('@x/fastify: a route asks for signed-request verification but the plugin has no `signedRequests` options.');
      const outcome = await signedRequestOutcome({ method: request.method, url: request.url, headers: request.headers, body: request.rawBody ?? undefined }, signedRequests);
      if (!outcome.ok) return send(reply, outcome);
      request.customerId = outcome.value.customerId;
    }
  });
};

/** Fastify plugin: verified callbacks and signed requests, opt-in per route. */
export const xVerification = fp(plugin, { fastify: '5.x', name: '@x/fastify' });
export default xVerification;

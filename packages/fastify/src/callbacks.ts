import { type CallbackOptions } from '@x/webhooks';
import { receiveCallback, settleWith, succeeded } from '@x/webhooks/adapter';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { missingOptions } from './errors.js';

interface Delivery {
  settle: (ok: boolean) => void;
  failed: boolean;
}

/**
 * The preHandler of callback routes, and the hooks that tie a delivery (with a replayStore) to
 * the handler's outcome: it is done when the reply is 2xx and nothing threw (onError), released
 * otherwise, and released when the connection closes before the answer is finished (Fastify's
 * onRequestAbort does not fire once the body was read, so the raw response's 'close' is watched).
 */
export function callbackHooks(fastify: FastifyInstance, callbacks: CallbackOptions | undefined) {
  const deliveries = new WeakMap<FastifyRequest, Delivery>();
  if (callbacks?.replayStore) {
    fastify.addHook('onError', async (request) => {
      const delivery = deliveries.get(request);
      if (delivery) delivery.failed = true;
    });
    fastify.addHook('onResponse', async (request, reply) => {
      const delivery = deliveries.get(request);
      if (delivery) delivery.settle(!delivery.failed && succeeded(reply.statusCode));
    });
  }

  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (!callbacks) throw missingOptions('callback', `${request.method} ${request.routeOptions.url ?? request.url}`);
    const callback = await receiveCallback(
      {
        readBody: async () => request.rawBody ?? new Uint8Array(),
        headers: request.headers,
        // Fastify parsed request.body from the same bytes: reuse it rather than parse twice.
        parsed: () => (typeof request.body === 'object' && request.body !== null ? request.body : undefined),
        respond: (answer) => void reply.code(answer.status).headers(answer.headers).send(answer.body),
      },
      callbacks,
      Infinity, // the route's bodyLimit was applied while capturing the bytes
    );
    if (!callback) return reply;
    request.callback = callback.payload;
    request.callbackHeader = callback.header;
    if (callbacks.replayStore) {
      const settle = settleWith(callback, callbacks);
      deliveries.set(request, { settle, failed: false });
      reply.raw.once('close', () => {
        if (!reply.raw.writableFinished) settle(false);
      });
    }
  };
}

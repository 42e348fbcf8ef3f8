import { signedRequestOutcome, type AdapterOutcome } from '@x/webhooks/adapter';
import type { VerifyOptions } from '@x/auth';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { missingOptions } from './errors.js';

/** The preHandler of signed-request routes: sets `request.customerId`, or answers 401 as the service does. */
export function signedRequestHook(options: VerifyOptions | undefined) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (!options) throw missingOptions('signed', `${request.method} ${request.routeOptions.url ?? request.url}`);
    const outcome: AdapterOutcome<{ customerId: string }> = await signedRequestOutcome(
      { method: request.method, url: request.url, headers: request.headers, body: request.rawBody ?? undefined },
      options,
    );
    if (!outcome.ok) return reply.code(outcome.status).send(outcome.body);
    request.customerId = outcome.value.customerId;
  };
}

/**
 * Helpers for your tests: callbacks signed as the service signs them.
 *
 * @packageDocumentation
 * @module @x/webhooks/testing
 */
import { callbackHeaders, type Credentials } from '@x/auth';
import type { CallbackPayload } from './types.js';

export type { CallbackPayload };

/**
 * A correctly signed callback, for your tests: the body as the service would send it and both
 * signature headers. Pass a string to sign those exact bytes.
 *
 * @example
 * ```ts
 * import { verifyCallback } from '@x/webhooks';
 * import { createSignedCallback } from '@x/webhooks/testing';
 *
 * const { body, headers } = createSignedCallback('{"reference_id":"0123456789ABCDEF0123456789ABCDEF"}', { customerId, apiKey });
 * const result = await verifyCallback({ body, headers }, { customerId, apiKey }); // ok: true
 * ```
 */
export function createSignedCallback(payload: CallbackPayload | string, credentials: Credentials): { body: string; headers: Record<string, string> } {
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
  return { body, headers: { 'content-type': 'application/json', ...callbackHeaders(body, credentials) } };
}

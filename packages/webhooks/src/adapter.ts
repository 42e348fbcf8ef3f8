import { SERVICE_AUTH_CODES, verifyRequest, type HeaderInput, type VerifiableRequest, type VerifyOptions } from '@x/auth';
import { verifyCallback, type CallbackOptions, type CallbackResult } from './verify.js';

// What framework adapters share: they read the raw body and headers, call one of these, and
// write `status` + `body` when `ok` is false. No crypto, time or canonicalization in adapters.

export type AdapterOutcome<T> = { ok: true; value: T } | { ok: false; status: number; body: Record<string, unknown>; result?: unknown };

/**
 * A callback route: 401 with a small JSON error when the signature fails, 200 `{ duplicate: true }`
 * for a delivery already processed (so the service stops retrying), else the verified payload.
 */
export async function callbackOutcome(
  body: string | Uint8Array,
  headers: HeaderInput,
  options: CallbackOptions,
  parsed?: unknown,
): Promise<AdapterOutcome<Extract<CallbackResult, { ok: true }>>> {
  const result = await verifyCallback({ body, headers, parsed }, options);
  if (result.ok) return { ok: true, value: result };
  if (result.reason === 'duplicate') return { ok: false, status: 200, body: { duplicate: true }, result };
  const status = result.reason === 'invalid_json' ? 400 : 401;
  return { ok: false, status, body: { error: result.reason, message: result.message }, result };
}

/** A route that accepts requests signed as the service requires; answers 401 as the service does. */
export async function signedRequestOutcome(
  request: VerifiableRequest,
  options: VerifyOptions,
): Promise<AdapterOutcome<{ customerId: string; scheme: 'basic' | 'digest' }>> {
  const result = await verifyRequest(request, options);
  if (result.ok) return { ok: true, value: { customerId: result.customerId, scheme: result.scheme } };
  const code = SERVICE_AUTH_CODES[result.reason];
  return {
    ok: false,
    status: result.status,
    body: { status: { code: code.positive, description: code.text, updated_on: new Date().toISOString() }, error: result.reason },
    result,
  };
}

/** The answer for a body over the size limit. */
export const tooLarge = (limit: number): AdapterOutcome<never> => ({ ok: false, status: 413, body: { error: 'body_too_large', message: `The body is larger than ${limit} bytes.` } });

import { type Credentials, decodeCredentials, decodeKey } from './credentials.js';
import { signingMac } from './hmac.js';
import type { MacProvider } from './mac.js';

/**
 * The signature the service puts on a callback: base64(HMAC-SHA256(base64-decoded key, raw body)).
 * Pass the body exactly as received (bytes, or the undecoded text); never re-serialised JSON.
 *
 * @example
 * ```ts
 * import { callbackSignature } from '@x/auth';
 *
 * const body = '{"reference_id":"0123456789ABCDEF0123456789ABCDEF"}';
 * const signature = callbackSignature(body, apiKey); // base64 HMAC-SHA256 of the exact bytes
 * ```
 */
export function callbackSignature(body: string | Uint8Array, apiKey: string, mac: MacProvider = signingMac): string {
  // One-off: the key is decoded and prepared on each call. To verify many callbacks, hold a
  // KeyCache (createKeyCache) or use the verifier of @x/webhooks, which prepares each key once.
  return mac('HMAC-SHA256', decodeKey(apiKey))([body]);
}

/**
 * Both headers the service sends with a callback: `authorization` (TSA) and `x-ts-authorization`.
 *
 * @example
 * ```ts
 * import { callbackHeaders } from '@x/auth';
 *
 * const body = JSON.stringify({ reference_id: '0123456789ABCDEF0123456789ABCDEF' });
 * const headers = callbackHeaders(body, { customerId, apiKey }); // authorization and x-ts-authorization, as the service sends them
 * ```
 */
export function callbackHeaders(body: string | Uint8Array, credentials: Credentials): Record<string, string> {
  decodeCredentials(credentials);
  const signature = callbackSignature(body, credentials.apiKey);
  return { authorization: `TSA ${credentials.customerId}:${signature}`, 'x-ts-authorization': signature };
}

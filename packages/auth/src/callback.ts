import { type Credentials, decodeCredentials } from './credentials.js';
import { decodeKey, signingMac, type MacProvider } from './hmac.js';

/**
 * The signature the service puts on a callback: base64(HMAC-SHA256(base64-decoded key, raw body)).
 * Pass the body exactly as received (bytes, or the undecoded text); never re-serialised JSON.
 */
export function callbackSignature(body: string | Uint8Array, apiKey: string, mac: MacProvider = signingMac): string {
  // One-off: the key is decoded and prepared on each call. To verify many callbacks, hold a
  // KeyCache (createKeyCache) or use the verifier of @x/webhooks, which prepares each key once.
  return mac('HMAC-SHA256', decodeKey(apiKey))([body]);
}

/** Both headers the service sends with a callback: `authorization` (TSA) and `x-ts-authorization`. */
export function callbackHeaders(body: string | Uint8Array, credentials: Credentials): Record<string, string> {
  decodeCredentials(credentials);
  const signature = callbackSignature(body, credentials.apiKey);
  return { authorization: `TSA ${credentials.customerId}:${signature}`, 'x-ts-authorization': signature };
}

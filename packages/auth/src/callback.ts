import { encodeBase64 } from './base64.js';
import { utf8 } from './bytes.js';
import { type Credentials, decodeCredentials } from './credentials.js';
import { prepareMac, type PreparedMac } from './hmac.js';

/**
 * The signature the service puts on a callback: base64(HMAC-SHA256(base64-decoded key, raw body)).
 * Pass the body exactly as received (bytes, or the undecoded text); never re-serialised JSON.
 */
export function callbackSignature(body: string | Uint8Array, apiKey: string): string {
  return encodeBase64(macFor(apiKey)([typeof body === 'string' ? utf8(body) : body]));
}

// Receivers verify many callbacks with few keys: keep the prepared HMAC state of the last keys.
const macs = new Map<string, PreparedMac>();
function macFor(apiKey: string): PreparedMac {
  let mac = macs.get(apiKey);
  if (!mac) {
    mac = prepareMac('HMAC-SHA256', decodeCredentials({ customerId: '-', apiKey }));
    if (macs.size >= 16) macs.delete(macs.keys().next().value as string);
    macs.set(apiKey, mac);
  }
  return mac;
}

/** Both headers the service sends with a callback: `authorization` (TSA) and `x-ts-authorization`. */
export function callbackHeaders(body: string | Uint8Array, credentials: Credentials): Record<string, string> {
  decodeCredentials(credentials);
  const signature = callbackSignature(body, credentials.apiKey);
  return { authorization: `TSA ${credentials.customerId}:${signature}`, 'x-ts-authorization': signature };
}

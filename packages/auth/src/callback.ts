import { type Credentials, decodeCredentials } from './credentials.js';
import { prepareMac, type MacProvider, type PreparedMac } from './hmac.js';

/**
 * The signature the service puts on a callback: base64(HMAC-SHA256(base64-decoded key, raw body)).
 * Pass the body exactly as received (bytes, or the undecoded text); never re-serialised JSON.
 */
export function callbackSignature(body: string | Uint8Array, apiKey: string, mac: MacProvider = prepareMac): string {
  return callbackMac(apiKey, mac)([body]);
}

// Receivers verify many callbacks with few keys: keep the prepared HMAC of the last keys, per provider.
const cache = new WeakMap<MacProvider, Map<string, PreparedMac>>();
function callbackMac(apiKey: string, provider: MacProvider): PreparedMac {
  let macs = cache.get(provider);
  if (!macs) cache.set(provider, (macs = new Map()));
  let mac = macs.get(apiKey);
  if (!mac) {
    mac = provider('HMAC-SHA256', decodeCredentials({ customerId: '-', apiKey }));
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

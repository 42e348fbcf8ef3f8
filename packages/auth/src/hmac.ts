import { hmac } from '@noble/hashes/hmac.js';
import { sha1 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { encodeBase64 } from './base64.js';
import { utf8 } from './bytes.js';
import type { Algorithm } from './constants.js';

/** A keyed HMAC, prepared once per key: the base64 signature of the parts (text is UTF-8). */
export interface PreparedMac {
  (parts: ReadonlyArray<string | Uint8Array>): string;
}

/**
 * Prepares an HMAC for a key. The default is pure (@noble/hashes, every runtime); on Node,
 * `nodeMac` from `@x/auth/node` uses node:crypto and is faster. Pass one as the `mac` option.
 */
export type MacProvider = (algorithm: Algorithm, key: Uint8Array) => PreparedMac;

export const prepareMac: MacProvider = (algorithm, key) => {
  const base = hmac.create(algorithm === 'HMAC-SHA1' ? sha1 : sha256, key);
  // One scratch state, overwritten from the keyed state on each call: no allocation per signature.
  // Safe because signing is synchronous (no interleaving between reset and digest).
  const scratch = base.clone();
  return (parts) => {
    const mac = base._cloneInto(scratch);
    for (const part of parts) mac.update(typeof part === 'string' ? utf8(part) : part);
    return encodeBase64(mac.digest());
  };
};

/** Case-insensitive parse of an `X-TS-Auth-Method` value. */
export function parseAlgorithm(value: string): Algorithm | undefined {
  const upper = value.trim().toUpperCase();
  return upper === 'HMAC-SHA256' || upper === 'HMAC-SHA1' ? upper : undefined;
}

// Servers verify many requests with few keys: keep the prepared HMACs of the last keys, per
// provider and algorithm, so a key is decoded and imported once, not on every request.
const prepared = new WeakMap<MacProvider, Map<string, PreparedMac>>();

/** The prepared HMAC of a base64 API key, from a small cache (at most 64 keys per provider). */
export function macForKey(provider: MacProvider, algorithm: Algorithm, apiKey: string, decode: (apiKey: string) => Uint8Array): PreparedMac {
  let macs = prepared.get(provider);
  if (!macs) prepared.set(provider, (macs = new Map()));
  const id = `${algorithm} ${apiKey}`;
  let mac = macs.get(id);
  if (!mac) {
    mac = provider(algorithm, decode(apiKey));
    if (macs.size >= 64) macs.delete(macs.keys().next().value as string);
    macs.set(id, mac);
  }
  return mac;
}

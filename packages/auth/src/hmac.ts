import { hmac } from '@noble/hashes/hmac.js';
import { sha1 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import type { Algorithm } from './constants.js';

/** A keyed HMAC whose key schedule is computed once; each call clones the prepared state. */
export interface PreparedMac {
  (parts: readonly Uint8Array[]): Uint8Array;
}

export function prepareMac(algorithm: Algorithm, key: Uint8Array): PreparedMac {
  const base = hmac.create(algorithm === 'HMAC-SHA1' ? sha1 : sha256, key);
  // One scratch state, overwritten from the keyed state on each call: no allocation per signature.
  // Safe because signing is synchronous (no interleaving between reset and digest).
  const scratch = base.clone();
  return (parts) => {
    const mac = base._cloneInto(scratch);
    for (const part of parts) mac.update(part);
    return mac.digest();
  };
}

/** Case-insensitive parse of an `X-TS-Auth-Method` value. */
export function parseAlgorithm(value: string): Algorithm | undefined {
  const upper = value.trim().toUpperCase();
  return upper === 'HMAC-SHA256' || upper === 'HMAC-SHA1' ? upper : undefined;
}

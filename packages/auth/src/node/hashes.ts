// `#hashes` on Node (the `node` export condition, when no deno/bun/worker/browser condition comes first): the hash functions of
// node:crypto, through its public API. @noble/hashes is not loaded on this path.
import { createHash, createHmac, createSecretKey } from 'node:crypto';
import type * as Portable from '../hashes.js';
import type { PreparedMac } from '../hmac.js';

/** HMAC through node:crypto: the key imported once as a KeyObject, an Hmac per signature (text hashed as UTF-8). */
export function nodeHmac(hash: 'sha1' | 'sha256', key: Uint8Array): PreparedMac {
  const secret = createSecretKey(key);
  return (parts) => {
    const mac = createHmac(hash, secret);
    for (const part of parts) mac.update(part);
    return mac.digest('base64');
  };
}

export const hmacSha256: typeof Portable.hmacSha256 = (key) => nodeHmac('sha256', key);
export const hmacSha1: typeof Portable.hmacSha1 = (key) => nodeHmac('sha1', key);
export const sha256Hex: typeof Portable.sha256Hex = (data) => createHash('sha256').update(data).digest('hex');

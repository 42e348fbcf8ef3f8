// `#hashes` everywhere but Node (Deno, Bun, workers, browsers, any runtime without a condition of
// its own): HMAC and SHA-256 from @noble/hashes' public API. On Node, package.json "imports" picks
// node/hashes.ts instead, and nothing of @noble/hashes is loaded.
import { hmac } from '@noble/hashes/hmac.js';
import { sha1 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, type CHash } from '@noble/hashes/utils.js';
import { encodeBase64 } from './base64.js';
import { utf8 } from './bytes.js';
import type { PreparedMac } from './mac.js';

/** @noble/hashes' HMAC of the parts, in order (text as UTF-8), base64. */
const nobleHmac =
  (hash: CHash, key: Uint8Array): PreparedMac =>
  (parts) => {
    const mac = hmac.create(hash, key);
    for (const part of parts) mac.update(typeof part === 'string' ? utf8(part) : part);
    return encodeBase64(mac.digest());
  };

/** HMAC-SHA256 for a key. */
export const hmacSha256 = (key: Uint8Array): PreparedMac => nobleHmac(sha256, key);

/** HMAC-SHA1 for a key. Only code that may use SHA-1 refers to it, so other bundles do not carry SHA-1. */
export const hmacSha1 = (key: Uint8Array): PreparedMac => nobleHmac(sha1, key);

/** Lower-case hex SHA-256 of bytes (text is UTF-8). */
export const sha256Hex = (data: string | Uint8Array): string => bytesToHex(sha256(typeof data === 'string' ? utf8(data) : data));

/**
 * A random UUID v4 (a nonce). `crypto.randomUUID` exists only in secure contexts (a page served
 * over plain HTTP has no such function), so fall back to `getRandomValues`, which every runtime has.
 */
export function randomUuid(): string {
  const c = globalThis.crypto;
  if (c.randomUUID) return c.randomUUID();
  const b = c.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  let uuid = '';
  b.forEach((byte, i) => (uuid += (i > 3 && i < 11 && !(i & 1) ? '-' : '') + (byte + 256).toString(16).slice(1)));
  return uuid;
}

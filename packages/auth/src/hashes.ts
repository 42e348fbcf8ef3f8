// `#hashes` everywhere but Node (Deno, Bun, workers, browsers, any runtime without a condition of its own):
// the hash functions on @noble/hashes' public API. On Node, package.json "imports" picks
// node/hashes.ts instead, and nothing of @noble/hashes is loaded.
import { sha1 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import type { CHash } from '@noble/hashes/utils.js';
import { encodeBase64 } from './base64.js';
import { utf8 } from './bytes.js';
import type { PreparedMac } from './hmac.js';

/**
 * A pure HMAC (RFC 2104) over the hash's public streaming API: the padded key is hashed into an
 * inner and an outer state once per key, and both are cloned for each signature.
 * Written here rather than taken from `@noble/hashes/hmac.js`: the same steps in 0.34 KB less of
 * a bundle (docs/decisions.md).
 */
function pureHmac(hash: CHash, key: Uint8Array): PreparedMac {
  const block = hash.blockLen;
  const pad = new Uint8Array(block);
  pad.set(key.length > block ? hash(key) : key);
  const inner = hash.create().update(pad.map((byte) => byte ^ 0x36));
  const outer = hash.create().update(pad.map((byte) => byte ^ 0x5c));
  return (parts) => {
    const state = inner.clone();
    for (const part of parts) state.update(typeof part === 'string' ? utf8(part) : part);
    return encodeBase64(outer.clone().update(state.digest()).digest());
  };
}

/** HMAC-SHA256 prepared for a key. */
export const hmacSha256 = (key: Uint8Array): PreparedMac => pureHmac(sha256, key);

/** HMAC-SHA1 prepared for a key. Only code that may use SHA-1 refers to it, so other bundles do not carry SHA-1. */
export const hmacSha1 = (key: Uint8Array): PreparedMac => pureHmac(sha1, key);

/** Lower-case hex SHA-256 of bytes (text is UTF-8). A loop: noble's bytesToHex brings a lookup table (70 B more in a bundle). */
export function sha256Hex(data: string | Uint8Array): string {
  let hex = '';
  for (const byte of sha256(typeof data === 'string' ? utf8(data) : data)) hex += (byte < 16 ? '0' : '') + byte.toString(16);
  return hex;
}

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

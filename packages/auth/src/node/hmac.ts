// HMAC on node:crypto, two ways. Both give the signatures of the pure HMAC (RFC 2104).
import * as nodeCrypto from 'node:crypto';
import type { PreparedMac } from '../hmac.js';

type NodeHash = 'sha1' | 'sha256';
interface OneShot {
  (algorithm: string, data: Uint8Array, outputEncoding: 'buffer'): Buffer;
  (algorithm: string, data: Uint8Array, outputEncoding: 'base64' | 'latin1'): string;
}

// crypto.hash (Node >= 20.12): one call into OpenSSL per digest, no Hash or Hmac object. Looked
// up when a key is prepared, not imported by name, so that a runtime whose node:crypto lacks it
// still loads this file.
const oneShotOf = () => (nodeCrypto as { hash?: unknown }).hash as OneShot | undefined;

// One block for both algorithms (SHA-1 and SHA-256 hash 64-byte blocks).
const BLOCK = 64;
// A key's scratch grows to the largest message it signed, up to this; beyond, a message gets a buffer of its own.
const KEPT_SCRATCH = 64 * 1024;

/**
 * HMAC as two one-shot digests over buffers prepared once per key: the key block XORed with 0x36
 * (then the message) and with 0x5c (then the inner digest). Each call writes the parts into the
 * first scratch after the key block (text as UTF-8, as Hmac.update writes it) and asks OpenSSL
 * for two digests; nothing else is allocated but a view of the scratch, the inner digest (a short
 * string) and the signature.
 */
export function oneShotHmac(hash: NodeHash, key: Uint8Array, digest: OneShot): PreparedMac {
  const block = new Uint8Array(BLOCK);
  block.set(key.length > BLOCK ? digest(hash, key, 'buffer') : key);
  const pad = (byte: number, size: number) => {
    const out = Buffer.allocUnsafeSlow(size);
    for (let i = 0; i < BLOCK; i++) out[i] = block[i]! ^ byte;
    return out;
  };
  let inner = pad(0x36, BLOCK + 1024);
  const outer = pad(0x5c, BLOCK + (hash === 'sha1' ? 20 : 32));
  return (parts) => {
    // Room for the worst case first (3 UTF-8 bytes per UTF-16 unit), so that no write is cut short.
    let most = BLOCK;
    for (const part of parts) most += typeof part === 'string' ? part.length * 3 : part.length;
    let scratch = inner;
    if (most > scratch.length) {
      scratch = pad(0x36, Math.max(most, scratch.length * 2));
      if (scratch.length <= KEPT_SCRATCH) inner = scratch;
    }
    let at = BLOCK;
    for (const part of parts) {
      if (typeof part === 'string') at += scratch.write(part, at, 'utf8');
      else {
        scratch.set(part, at);
        at += part.length;
      }
    }
    // The inner digest as a latin1 string (a character per byte): no Buffer and its backing store per call.
    outer.write(digest(hash, scratch.subarray(0, at), 'latin1'), BLOCK, 'latin1');
    return digest(hash, outer, 'base64');
  };
}

/** HMAC through a node:crypto Hmac object per call, the key imported once as a KeyObject. */
export function hmacObject(hash: NodeHash, key: Uint8Array): PreparedMac {
  const secret = nodeCrypto.createSecretKey(key);
  return (parts) => {
    const hmac = nodeCrypto.createHmac(hash, secret);
    for (const part of parts) hmac.update(part); // strings are hashed as UTF-8
    return hmac.digest('base64');
  };
}

/** The faster of the two this runtime has: one-shot digests where node:crypto has `hash`, else an Hmac object. */
export function nodeHmac(hash: NodeHash, key: Uint8Array): PreparedMac {
  const digest = oneShotOf();
  return digest ? oneShotHmac(hash, key, digest) : hmacObject(hash, key);
}

/** node:crypto's one-shot digest, when this runtime has it (for tests). */
export const nodeOneShot = oneShotOf();

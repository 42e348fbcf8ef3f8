// `#hashes` on Node (the `node` export condition, when no deno/bun/worker/browser condition comes first): the hash functions of
// node:crypto, through its public API. @noble/hashes is not loaded on this path.
import type * as Portable from '../hashes.js';
import type { PreparedMac } from '../hmac.js';

// node:crypto read with process.getBuiltinModule, not imported: an `import` of a built-in builds an
// ESM facade that reads every export, and reading `webcrypto` loads WebCrypto (about 1 ms at start).
// It is read at the first hash, not at load: node:crypto and the streams it loads are about a
// quarter of an `import` + `createClient()` cold start, and preparing a signer does not need it
// (issue 20). Its functions are looked up on the module object at each call.
let cryptoModule: typeof import('node:crypto') | undefined;
const crypto = () => (cryptoModule ??= process.getBuiltinModule('node:crypto'));

/** Block length of SHA-1 and SHA-256: the size of the padded key (RFC 2104). */
const BLOCK = 64;

/**
 * HMAC (RFC 2104) through node:crypto's one-shot `hash`: the key's inner and outer pads are made
 * once, at the first signature (so that a client made and not yet used has not loaded
 * node:crypto), then each signature is two digests, of the inner pad and the parts (text as
 * UTF-8), then of the outer pad and that digest. Not an Hmac per signature: an Hmac is a stream
 * object with a native handle for the collector to track, and in a busy server (the emulator under
 * load) making one per request took about 7% more CPU time (BENCHMARKS.md).
 */
export function nodeHmac(hash: 'sha1' | 'sha256', key: Uint8Array): PreparedMac {
  let pads: [inner: Uint8Array, outer: Uint8Array] | undefined;
  return (parts) => {
    const { hash: digest } = crypto();
    pads ??= padsOf(hash, key);
    const inner: Uint8Array[] = [pads[0]];
    for (const part of parts) inner.push(typeof part === 'string' ? Buffer.from(part) : part);
    return digest(hash, Buffer.concat([pads[1], digest(hash, Buffer.concat(inner), 'buffer')]), 'base64');
  };
}

/** The key zero-padded to a block (hashed first when longer), XOR 0x36 and XOR 0x5c. */
function padsOf(hash: 'sha1' | 'sha256', key: Uint8Array): [Uint8Array, Uint8Array] {
  const padded = Buffer.alloc(BLOCK);
  padded.set(key.length > BLOCK ? crypto().hash(hash, key, 'buffer') : key);
  const pads: [Uint8Array, Uint8Array] = [padded.map((byte) => byte ^ 0x36), padded.map((byte) => byte ^ 0x5c)];
  padded.fill(0);
  return pads;
}

export const hmacSha256: typeof Portable.hmacSha256 = (key) => nodeHmac('sha256', key);
export const hmacSha1: typeof Portable.hmacSha1 = (key) => nodeHmac('sha1', key);
export const sha256Hex: typeof Portable.sha256Hex = (data) => crypto().hash('sha256', data, 'hex');
/** node:crypto's own randomUUID: `globalThis.crypto` is WebCrypto, an accessor and a receiver check more per nonce. */
export const randomUuid: typeof Portable.randomUuid = () => crypto().randomUUID();

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

/**
 * HMAC through node:crypto: the key imported as a KeyObject once, at the first signature (so that a
 * client made and not yet used has not loaded node:crypto), an Hmac per signature (text hashed as UTF-8).
 */
export function nodeHmac(hash: 'sha1' | 'sha256', key: Uint8Array): PreparedMac {
  let secret: import('node:crypto').KeyObject | undefined;
  return (parts) => {
    const mac = crypto().createHmac(hash, (secret ??= crypto().createSecretKey(key)));
    for (const part of parts) mac.update(part);
    return mac.digest('base64');
  };
}

export const hmacSha256: typeof Portable.hmacSha256 = (key) => nodeHmac('sha256', key);
export const hmacSha1: typeof Portable.hmacSha1 = (key) => nodeHmac('sha1', key);
export const sha256Hex: typeof Portable.sha256Hex = (data) => crypto().createHash('sha256').update(data).digest('hex');
/** node:crypto's own randomUUID: `globalThis.crypto` is WebCrypto, an accessor and a receiver check more per nonce. */
export const randomUuid: typeof Portable.randomUuid = () => crypto().randomUUID();

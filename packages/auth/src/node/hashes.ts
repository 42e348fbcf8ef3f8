// `#hashes` on Node (the `node` export condition, when no deno/bun/worker/browser condition comes
// first): HMAC and SHA-256 from node:crypto's public API. @noble/hashes is not loaded on this path.
import type * as Portable from '../hashes.js';
import type { PreparedMac } from '../mac.js';

// node:crypto is read with process.getBuiltinModule when a hash is computed, not imported: making
// a client or a signer does not load it, and an `import` of a built-in also loads WebCrypto.
const crypto = () => process.getBuiltinModule('node:crypto');

/** node:crypto's Hmac of the parts, in order (text as UTF-8), base64. */
export function nodeHmac(hash: 'sha1' | 'sha256', key: Uint8Array): PreparedMac {
  let createHmac: typeof import('node:crypto').createHmac | undefined; // looked up at the first signature
  return (parts) => {
    const mac = (createHmac ??= crypto().createHmac)(hash, key);
    for (const part of parts) mac.update(part);
    return mac.digest('base64');
  };
}

export const hmacSha256: typeof Portable.hmacSha256 = (key) => nodeHmac('sha256', key);
export const hmacSha1: typeof Portable.hmacSha1 = (key) => nodeHmac('sha1', key);
export const sha256Hex: typeof Portable.sha256Hex = (data) => crypto().createHash('sha256').update(data).digest('hex');
export const randomUuid: typeof Portable.randomUuid = () => crypto().randomUUID();

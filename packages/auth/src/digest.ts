import { _SHA256 } from '@noble/hashes/sha2.js';
import { utf8 } from './bytes.js';

/**
 * Lower-case hex SHA-256 of bytes (text is UTF-8): an identity for bodies that carry none.
 *
 * @example
 * ```ts
 * import { sha256Hex } from '@x/auth/protocol';
 *
 * sha256Hex('abc'); // 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
 * ```
 */
export function sha256Hex(data: string | Uint8Array): string {
  const digest = new _SHA256().update(typeof data === 'string' ? utf8(data) : data).digest();
  let out = '';
  for (const byte of digest) out += (byte < 16 ? '0' : '') + byte.toString(16);
  return out;
}

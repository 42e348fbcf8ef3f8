import { _SHA256 } from '@noble/hashes/sha2.js';
import { utf8 } from './bytes.js';

/** Lower-case hex SHA-256 of bytes (text is UTF-8): an identity for bodies that carry none. */
export function sha256Hex(data: string | Uint8Array): string {
  const digest = new _SHA256().update(typeof data === 'string' ? utf8(data) : data).digest();
  let out = '';
  for (const byte of digest) out += (byte < 16 ? '0' : '') + byte.toString(16);
  return out;
}

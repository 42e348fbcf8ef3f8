import { sha256 } from '@noble/hashes/sha2.js';
import { utf8 } from './bytes.js';

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** Lower-case hex SHA-256 of bytes (text is UTF-8): an identity for bodies that carry none. */
export function sha256Hex(data: string | Uint8Array): string {
  const digest = sha256(typeof data === 'string' ? utf8(data) : data);
  let out = '';
  for (const byte of digest) out += HEX[byte];
  return out;
}

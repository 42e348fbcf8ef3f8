import { sha256Hex as hex } from '#hashes';

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
  return hex(data);
}

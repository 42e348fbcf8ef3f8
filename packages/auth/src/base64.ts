// RFC 4648 base64, standard alphabet, with padding, through the runtime's own btoa/atob (every
// supported runtime has them; `Buffer` is not portable and `Uint8Array.fromBase64` is not yet
// everywhere). Bytes become a binary string in chunks: one String.fromCharCode call per chunk,
// no string per character.

// Bytes per String.fromCharCode call: a multiple of 3 (padding only at the very end), small
// enough for any engine's argument limit.
const CHUNK = 3 * 2048;

/**
 * Standard base64 (RFC 4648, padded) of bytes.
 *
 * @example
 * ```ts
 * import { encodeBase64 } from '@x/auth/protocol';
 *
 * encodeBase64(new TextEncoder().encode('hi')); // 'aGk='
 * ```
 */
export function encodeBase64(bytes: Uint8Array): string {
  let text = '';
  for (let start = 0; start < bytes.length; start += CHUNK) text += String.fromCharCode.apply(null, bytes.subarray(start, start + CHUNK) as unknown as number[]);
  return btoa(text);
}

/**
 * Strict decode: standard alphabet, length a multiple of 4, at most two `=` at the end, and
 * zero padding bits (only the canonical text of a byte string is accepted).
 * Returns undefined for anything else; never throws.
 *
 * @example
 * ```ts
 * import { decodeBase64 } from '@x/auth/protocol';
 *
 * decodeBase64('aGk=');  // Uint8Array [104, 105]
 * decodeBase64('aGk');   // undefined: not padded
 * ```
 */
export function decodeBase64(text: string): Uint8Array | undefined {
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    return undefined; // not base64 at all
  }
  // Only the canonical text is accepted (standard alphabet, padded, padding bits zero, no white
  // space): the one that encodes back to itself, so two texts never decode to the same key.
  // A plain loop: Uint8Array.from with a mapping callback is much slower.
  const bytes = new Uint8Array(binary.length);
  for (let i = bytes.length; i--; ) bytes[i] = binary.charCodeAt(i);
  return btoa(binary) === text ? bytes : undefined;
}

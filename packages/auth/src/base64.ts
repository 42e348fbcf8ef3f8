// RFC 4648 standard alphabet, with padding. Written out because `Buffer` is not portable and
// `Uint8Array.fromBase64` is not yet in every runtime we support.
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

export function encodeBase64(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + ALPHABET[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + '==';
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + '=';
  }
  return out;
}

/**
 * Strict decode: standard alphabet, length a multiple of 4, at most two `=` at the end, and
 * zero padding bits (only the canonical text of a byte string is accepted).
 * Returns undefined for anything else; never throws.
 */
export function decodeBase64(text: string): Uint8Array | undefined {
  if (typeof text !== 'string' || text.length % 4 !== 0) return undefined;
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const out = new Uint8Array((text.length / 4) * 3 - padding);
  const end = text.length - padding;
  let o = 0;
  for (let i = 0; i < text.length; i += 4) {
    let n = 0;
    for (let j = i; j < i + 4; j++) {
      // indexOf is slower than a table but keeps the bundle small; keys are decoded once per signer.
      const v = j >= end ? 0 : ALPHABET.indexOf(text[j]!);
      if (v < 0) return undefined;
      n = (n << 6) | v;
    }
    out[o++] = n >> 16;
    if (o < out.length) out[o++] = (n >> 8) & 255;
    if (o < out.length) out[o++] = n & 255;
  }
  // Padding bits must be zero, or two texts would decode to the same key.
  if (padding && (ALPHABET.indexOf(text[end - 1]!) & (padding === 2 ? 15 : 3)) !== 0) return undefined;
  return out;
}

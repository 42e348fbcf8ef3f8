// Random reference ids and verification codes from a pool of bytes: one crypto.getRandomValues call
// fills RANDOM_POOL_BYTES, then ids take their bytes from it, each byte used once (so an id is as
// unpredictable as the bytes crypto gives; nothing is derived or reused). Codes take one byte per
// digit by rejection (bytes 250-255 are skipped), so every digit is exactly equally likely.

/** Bytes fetched from crypto per refill (the most one getRandomValues call may fill is 65 536). */
export const RANDOM_POOL_BYTES = 4096;

const pool = new Uint8Array(RANDOM_POOL_BYTES);
let used = RANDOM_POOL_BYTES;

/** The next random byte of the pool, refilled when spent. */
function nextByte(): number {
  if (used === RANDOM_POOL_BYTES) {
    crypto.getRandomValues(pool);
    used = 0;
  }
  const byte = pool[used]!;
  pool[used++] = 0; // a byte handed out does not stay in memory
  return byte;
}

/** Character codes of the upper-case hex digits. */
const HEX_CODES = Array.from('0123456789ABCDEF', (c) => c.charCodeAt(0));

/**
 * A reference id: `bytes` random bytes as upper-case hex (16 bytes: the service's 32 characters).
 * Made in one piece from character codes, not by adding 16 strings: the id is a map key, and a
 * string made by additions is copied into one piece again before it is hashed.
 */
export function randomHex(bytes: number): string {
  const codes = new Array<number>(bytes * 2);
  for (let i = 0; i < bytes; i++) {
    const byte = nextByte();
    codes[2 * i] = HEX_CODES[byte >> 4]!;
    codes[2 * i + 1] = HEX_CODES[byte & 15]!;
  }
  return String.fromCharCode(...codes);
}

/** A verification code of `length` digits, each uniformly distributed. */
export function randomDigits(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = nextByte();
    if (byte < 250) out += String(byte % 10);
  }
  return out;
}

// Random reference ids and verification codes, straight from crypto.getRandomValues at each call.
// Codes take one byte per digit by rejection (bytes 250-255 are skipped), so every digit is
// exactly equally likely.

const HEX = '0123456789ABCDEF';

/** A reference id: `bytes` random bytes as upper-case hex (16 bytes: the service's 32 characters). */
export function randomHex(bytes: number): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (byte) => HEX[byte >> 4]! + HEX[byte & 15]!).join('');
}

/** A verification code of `length` digits, each uniformly distributed. */
export function randomDigits(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length - out.length))) if (byte < 250) out += String(byte % 10);
  }
  return out;
}

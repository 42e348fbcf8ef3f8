/** A reference id: `bytes` random bytes as upper-case hex (16 bytes: the service's 32 characters). */
export function randomHex(bytes: number): string {
  const buffer = crypto.getRandomValues(new Uint8Array(bytes));
  return Array.from(buffer, (b) => b.toString(16).padStart(2, '0')).join('').toUpperCase();
}

/** A verification code of `length` digits. */
export function randomDigits(length: number): string {
  const buffer = crypto.getRandomValues(new Uint32Array(length));
  return Array.from(buffer, (n) => String(n % 10)).join('');
}

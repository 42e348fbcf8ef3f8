/**
 * Constant-time equality of two strings: for equal lengths the time never depends on where they
 * first differ. Lengths are not secret here (a signature's length is fixed by its algorithm).
 */
export function timingSafeEqual(a: string, b: string): boolean {
  if (typeof a !== 'string' || typeof b !== 'string' || a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

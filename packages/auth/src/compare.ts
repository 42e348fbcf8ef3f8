/**
 * Constant-time equality of two strings: for equal lengths the time never depends on where they
 * first differ. Lengths are not secret here (a signature's length is fixed by its algorithm).
 *
 * @example
 * ```ts
 * import { timingSafeEqual } from '@x/auth/protocol';
 *
 * const expected = 'c2lnbmF0dXJl';
 * timingSafeEqual(expected, 'c2lnbmF0dXJl'); // true, in time independent of where strings differ
 * ```
 */
export function timingSafeEqual(a: string, b: string): boolean {
  if (typeof a !== 'string' || typeof b !== 'string' || a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

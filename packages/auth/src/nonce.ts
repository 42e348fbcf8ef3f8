import { NONCE_MAX_LENGTH, NONCE_MIN_LENGTH } from './constants.js';

/** 4 to 256 characters (Unicode code points), as the interface document requires. */
export function isValidNonce(nonce: string): boolean {
  if (nonce.length < NONCE_MIN_LENGTH || nonce.length > NONCE_MAX_LENGTH * 2) return false;
  let count = 0;
  for (const _ of nonce) count++; // code points, without copying them into an array
  return count >= NONCE_MIN_LENGTH && count <= NONCE_MAX_LENGTH;
}

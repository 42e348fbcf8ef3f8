/**
 * The wire protocol's pieces, for building your own signer, verifier or emulator, and for debugging a signature mismatch stage by stage (string to sign, date, base64, header names). Most users need none of it: the main entry signs and verifies.
 *
 * @packageDocumentation
 * @module @x/auth/protocol
 */
export { stringToSign, stringToSignParts, joinStringToSign, canonicalTsHeaders, canonicalHeaderValue, resourceOf } from './canonical.js';
export type { CanonicalParts, StringToSign } from './canonical.js';
export { headerMap, headerValue } from './verify.js';
export { formatHttpDate, parseHttpDate } from './date.js';
export { encodeBase64, decodeBase64 } from './base64.js';
export { timingSafeEqual } from './compare.js';
export { readBoundedBody } from './body.js';
export { sha256Hex } from './digest.js';
export { decodeCredentials } from './credentials.js';
export {
  HEADER,
  CONTENT_TYPE,
  CLOCK_SKEW_MS,
  NONCE_WINDOW_MS,
  NONCE_MIN_LENGTH,
  NONCE_MAX_LENGTH,
  DEFAULT_ALGORITHM,
} from './constants.js';
// The types these names use, so that this entry is complete on its own (the main entry has them too).
export type { Algorithm } from './constants.js';
export type { Credentials } from './credentials.js';
export type { VerifyFailure } from '@x/service/failures';
export type { HeaderInput } from './verify.js';

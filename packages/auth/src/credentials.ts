import { decodeBase64 } from './base64.js';
import { AuthError } from './errors.js';

export interface Credentials {
  /** The account identifier (UUID-shaped). */
  customerId: string;
  /** The shared secret, in its base64 text form as the service issues it. */
  apiKey: string;
}

/**
 * Checks credentials and returns the decoded key bytes. Messages never contain the key.
 *
 * @example
 * ```ts
 * import { decodeCredentials } from '@x/auth/protocol';
 *
 * const key = decodeCredentials({ customerId, apiKey }); // the key's bytes; an AuthError that says what is wrong otherwise
 * ```
 */
export function decodeCredentials(credentials: Credentials | undefined): Uint8Array {
  if (!credentials || typeof credentials !== 'object') {
    throw new AuthError('missing_credentials', 'Credentials are required: pass { customerId, apiKey }.');
  }
  const { customerId, apiKey } = credentials;
  if (typeof customerId !== 'string' || customerId.trim() === '') {
    throw new AuthError('missing_credentials', "customerId is empty: pass your account's customer ID.");
  }
  // Visible ASCII without ":": the id is sent as is in `TSA <id>:<signature>`, and Basic splits at
  // the first ":". The character is named by code point (it may be invisible), its position from 1.
  const bad = /[^!-9;-~]/u.exec(customerId);
  if (bad) {
    throw new AuthError(
      'invalid_customer_id',
      `customerId has U+${bad[0].codePointAt(0)!.toString(16)} at position ${[...customerId.slice(0, bad.index)].length + 1}: use visible ASCII without ":" or white space, as issued.`,
    );
  }
  return decodeKey(apiKey);
}

/**
 * The key bytes of a base64 API key, checked as `decodeCredentials` checks it (messages never
 * contain the key). Apart, so that code that only verifies (a callback's HMAC) carries no
 * customer id checks.
 */
export function decodeKey(apiKey: string): Uint8Array {
  if (typeof apiKey !== 'string' || apiKey === '') {
    throw new AuthError('missing_credentials', "apiKey is empty: pass your account's API key (base64).");
  }
  const key = decodeBase64(apiKey);
  if (!key || key.length === 0) {
    throw new AuthError(
      'invalid_api_key',
      `apiKey is not valid base64 (${apiKey.length} characters): copy the key as issued, without quotes or white space.`,
    );
  }
  return key;
}

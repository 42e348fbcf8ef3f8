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
  if (/[\s:]/.test(customerId)) {
    throw new AuthError('invalid_customer_id', 'customerId has white space or ":": copy the customer ID whole.');
  }
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

import { decodeBase64 } from './base64.js';
import { AuthError } from './errors.js';

export interface Credentials {
  /** The account identifier (UUID-shaped). */
  customerId: string;
  /** The shared secret, in its base64 text form as the service issues it. */
  apiKey: string;
}

/** A character of a customer id that cannot be sent, in words: never shown itself (it may be invisible). */
function describeCharacter(char: string): string {
  const code = `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  if (char === ':') return '":" (it ends the customer ID in the Authorization header)';
  if (/\s/.test(char)) return `white space (${code})`;
  if (char < ' ' || char === '\u007f') return `a control character (${code})`;
  return `a character that is not ASCII (${code})`;
}

/**
 * Why a customer id cannot go in a header, or undefined. A customer id is visible ASCII (U+0021 to
 * U+007E) without ":": it is sent as is in `TSA <customerId>:<signature>`, and Basic splits its
 * token at the first ":". The service's ids are UUID-shaped. The position counts characters from 1.
 */
function customerIdProblem(customerId: string): string | undefined {
  let position = 0;
  for (const char of customerId) {
    position++;
    if (char > ' ' && char < '\u007f' && char !== ':') continue;
    return `customerId has ${describeCharacter(char)} at position ${position} of ${[...customerId].length}: a customer ID is visible ASCII without ":" (UUID-shaped, e.g. FFFFFFFF-EEEE-DDDD-1234-AB1234567890). Check that it was copied whole, without spaces, line breaks or invisible characters.`;
  }
  return undefined;
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
  const problem = customerIdProblem(customerId);
  if (problem) throw new AuthError('invalid_customer_id', problem);
  if (typeof apiKey !== 'string' || apiKey === '') {
    throw new AuthError('missing_credentials', "apiKey is empty: pass your account's API key (a base64 string).");
  }
  const key = decodeBase64(apiKey);
  if (!key || key.length === 0) {
    throw new AuthError(
      'invalid_api_key',
      `apiKey is not valid base64 (${apiKey.length} characters given): copy the key exactly as issued, without quotes, spaces or line breaks.`,
    );
  }
  return key;
}

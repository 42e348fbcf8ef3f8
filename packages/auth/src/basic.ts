import { decodeBase64, encodeBase64 } from './base64.js';
import { fromUtf8, utf8 } from './bytes.js';
import { type Credentials, decodeCredentials } from './credentials.js';

/**
 * `Basic base64(utf8(customerId + ":" + apiKey))`, the key in its base64 text form.
 *
 * @example
 * ```ts
 * import { basicAuthorization } from '@x/auth';
 *
 * const authorization = basicAuthorization({ customerId, apiKey }); // 'Basic <base64 of id:key>'
 * ```
 */
export function basicAuthorization(credentials: Credentials): string {
  decodeCredentials(credentials);
  return `Basic ${encodeBase64(utf8(`${credentials.customerId}:${credentials.apiKey}`))}`;
}

/** Parses the token of a Basic header; undefined when it is not `base64(id:key)`. Never throws. */
export function parseBasicToken(token: string): Credentials | undefined {
  const bytes = decodeBase64(token);
  if (!bytes) return undefined;
  const text = fromUtf8(bytes);
  const colon = text.indexOf(':');
  if (colon <= 0 || colon === text.length - 1) return undefined;
  return { customerId: text.slice(0, colon), apiKey: text.slice(colon + 1) };
}

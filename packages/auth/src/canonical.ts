import { fromUtf8, utf8 } from './bytes.js';
import { TS_HEADER_PREFIX } from './constants.js';

/** The parts of a request that the string to sign is made of. */
export interface CanonicalParts {
  method: string;
  /** Content-Type as sent; ignored (empty line) for GET and HEAD. */
  contentType?: string | undefined;
  /** The Date header value; ignored (empty line) whenever an x-ts-date header is among tsHeaders. */
  date?: string | undefined;
  /** Every x-ts-* header sent, any case, raw values. */
  tsHeaders: Readonly<Record<string, string>>;
  /** The body exactly as sent on the wire. */
  body?: string | Uint8Array | undefined;
  /** The path as sent, from after the host to before "?". */
  resource: string;
}

/**
 * The string to sign: `text` to read and diff, `parts` to feed the HMAC. Parts are text except a
 * body given as bytes, which is signed as those bytes (never through a string round trip).
 */
export interface StringToSign {
  text: string;
  parts: Array<string | Uint8Array>;
}

/**
 * Unfolds RFC 2616 §4.2 line folding into one space and trims the value.
 *
 * @example
 * ```ts
 * import { canonicalHeaderValue } from '@x/auth/protocol';
 *
 * canonicalHeaderValue('  a\r\n  folded value '); // 'a folded value'
 * ```
 */
export const canonicalHeaderValue = (value: string): string =>
  (value.includes('\n') ? value.replace(/\r?\n[ \t]+/g, ' ') : value).trim();

/**
 * The canonical x-ts-* header lines, `name:value\n` each: names lower-cased and sorted by name,
 * values unfolded and trimmed. Names that are not x-ts-* are left out.
 *
 * @example
 * ```ts
 * import { canonicalTsHeaders } from '@x/auth/protocol';
 *
 * canonicalTsHeaders({ 'X-TS-Nonce': 'abc-123', 'x-ts-auth-method': 'HMAC-SHA256' });
 * // 'x-ts-auth-method:HMAC-SHA256\nx-ts-nonce:abc-123\n'
 * ```
 */
export function canonicalTsHeaders(headers: Readonly<Record<string, string>>): string {
  return canonicalTsLines(Object.entries(headers));
}

/** `canonicalTsHeaders` of [name, value] pairs (the verifier's header map). */
export function canonicalTsLines(headers: Iterable<readonly [string, string]>): string {
  const entries: Array<[string, string]> = [];
  for (const [name, value] of headers) {
    const lower = name.trim().toLowerCase();
    if (lower.startsWith(TS_HEADER_PREFIX)) entries.push([lower, canonicalHeaderValue(value)]);
  }
  entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  let lines = '';
  for (const [name, value] of entries) lines += `${name}:${value}\n`;
  return lines;
}

/**
 * The resource from a URL or a request target, as sent: no decoding, no normalisation, no query.
 *
 * @example
 * ```ts
 * import { resourceOf } from '@x/auth/protocol';
 *
 * resourceOf('https://rest-api.telesign.com/v1/messaging?x=1'); // '/v1/messaging'
 * ```
 */
export function resourceOf(url: string): string {
  let start = 0;
  const scheme = url.indexOf('://');
  if (!url.startsWith('/') && scheme > 0) {
    const slash = url.indexOf('/', scheme + 3);
    if (slash < 0) return '/';
    start = slash;
  }
  let end = url.length;
  const query = url.indexOf('?', start);
  if (query >= 0) end = query;
  const hash = url.indexOf('#', start);
  if (hash >= 0 && hash < end) end = hash;
  return url.slice(start, end) || '/';
}

/**
 * Joins the elements in the document's order: method, content type (empty for GET/HEAD), date
 * (empty when X-TS-Date is sent), the canonical x-ts-* lines, the body and "\n" (only when there
 * is a body), the resource.
 *
 * @example
 * ```ts
 * import { joinStringToSign } from '@x/auth/protocol';
 *
 * const { text } = joinStringToSign('GET', undefined, undefined, 'x-ts-date:Thu, 01 Jan 1970 00:00:00 GMT\n', undefined, '/v1/messaging/ABC');
 * // 'GET\n\n\nx-ts-date:Thu, 01 Jan 1970 00:00:00 GMT\n/v1/messaging/ABC'
 * ```
 */
export function joinStringToSign(
  method: string,
  contentType: string | undefined,
  date: string | undefined,
  tsLines: string,
  body: string | Uint8Array | undefined,
  resource: string,
): StringToSign {
  const parts = signingParts(method, contentType, date, tsLines, body, resource);
  return { text: textOf(parts), parts };
}

/** The parts of `joinStringToSign` alone: what an HMAC needs, without decoding a body given as bytes. */
export function signingParts(
  method: string,
  contentType: string | undefined,
  date: string | undefined,
  tsLines: string,
  body: string | Uint8Array | undefined,
  resource: string,
): Array<string | Uint8Array> {
  const type = method === 'GET' || method === 'HEAD' ? '' : (contentType ?? '');
  const head = `${method}\n${type}\n${date ?? ''}\n${tsLines}`;
  if (body === undefined || body.length === 0) return [head + resource];
  if (typeof body === 'string') return [`${head}${body}\n${resource}`];
  return [head, body, `\n${resource}`];
}

/** The text of signing parts (a body given as bytes decoded for display); one text part is itself. */
export function textOf(parts: ReadonlyArray<string | Uint8Array>): string {
  let text = '';
  for (const part of parts) text += typeof part === 'string' ? part : fromUtf8(part);
  return text;
}

/**
 * The string to sign of a request described by its parts (the verifier's view).
 *
 * @example
 * ```ts
 * import { stringToSign } from '@x/auth/protocol';
 *
 * const { text } = stringToSign({ method: 'GET', tsHeaders: { 'x-ts-date': 'Thu, 01 Jan 1970 00:00:00 GMT' }, resource: '/v1/messaging/ABC' });
 * log(text); // diff it with the one a failed verification reports
 * ```
 */
export function stringToSign(parts: CanonicalParts): StringToSign {
  const hasTsDate = Object.keys(parts.tsHeaders).some((name) => name.trim().toLowerCase() === 'x-ts-date');
  return joinStringToSign(
    parts.method.toUpperCase(),
    parts.contentType,
    hasTsDate ? '' : parts.date,
    canonicalTsHeaders(parts.tsHeaders),
    parts.body,
    parts.resource,
  );
}

/**
 * The string to sign as the bytes that go into the HMAC.
 *
 * @example
 * ```ts
 * import { stringToSignParts } from '@x/auth/protocol';
 *
 * const parts = stringToSignParts({ method: 'POST', contentType: 'application/json', tsHeaders: {}, body: new Uint8Array([123, 125]), resource: '/v1/x' });
 * // the body stays bytes: feed the parts to an HMAC in order
 * ```
 */
export function stringToSignParts(parts: CanonicalParts): Uint8Array[] {
  return stringToSign(parts).parts.map((part) => (typeof part === 'string' ? utf8(part) : part));
}

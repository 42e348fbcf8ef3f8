import { utf8 } from './bytes.js';
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

/** Unfolds RFC 2616 §4.2 line folding into one space and trims the value. */
export const canonicalHeaderValue = (value: string): string => value.replace(/\r?\n[ \t]+/g, ' ').trim();

/**
 * The canonical x-ts-* header lines, `name:value\n` each, names lower-cased and sorted.
 * Names that are not x-ts-* are left out.
 */
export function canonicalTsHeaders(headers: Readonly<Record<string, string>>): string {
  const lines: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.trim().toLowerCase();
    if (lower.startsWith(TS_HEADER_PREFIX)) lines.push(`${lower}:${canonicalHeaderValue(value)}\n`);
  }
  return lines.sort().join('');
}

/** The resource from a URL or a request target, as sent: no decoding, no normalisation, no query. */
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

const isBodyless = (method: string) => method === 'GET' || method === 'HEAD';

/**
 * The string to sign, as the bytes that go into the HMAC. Kept as parts so that a body given as
 * bytes is signed as those bytes, never through a string round trip.
 */
export function stringToSignParts(parts: CanonicalParts): Uint8Array[] {
  const method = parts.method.toUpperCase();
  const contentType = isBodyless(method) ? '' : (parts.contentType ?? '');
  const hasTsDate = Object.keys(parts.tsHeaders).some((name) => name.trim().toLowerCase() === 'x-ts-date');
  const date = hasTsDate ? '' : (parts.date ?? '');
  const head = `${method}\n${contentType}\n${date}\n${canonicalTsHeaders(parts.tsHeaders)}`;
  const body = parts.body ?? '';
  if (body.length === 0) return [utf8(head + parts.resource)];
  if (typeof body === 'string') return [utf8(`${head}${body}\n${parts.resource}`)];
  return [utf8(head), body, utf8(`\n${parts.resource}`)];
}

// Where requests go: the base URL (origin + path prefix) and the paths under it. A path either
// resolves to exactly `prefix + path` on the base origin, or it is a ValidationError before
// anything is signed. The rules refuse up front what the URL parser would rewrite (backslashes,
// tabs and newlines it strips, dot segments, `//` that names another host); the check after
// parsing catches anything the rules missed.
import { ConfigurationError, ValidationError } from '../errors.js';

export interface Base {
  /** `https://host:port` */
  origin: string;
  /** The base path without its trailing slash: '' or '/prefix'. */
  prefix: string;
}

/** A URL's hostname without the brackets of an IPv6 address (`[::1]` is `::1`), as sockets and certificates name it. */
export const bareHost = (hostname: string): string => (hostname.startsWith('[') ? hostname.slice(1, -1) : hostname);

/**
 * `value` parsed as an absolute URL, or a ConfigurationError about `option` that names neither the
 * URL nor the parser's error: both would show a password the URL may hold (Node's ERR_INVALID_URL
 * keeps the whole input).
 */
export function absoluteUrl(value: string | URL, option: string, example: string): URL {
  try {
    return new URL(String(value));
  } catch {
    throw new ConfigurationError(`${option} must be an absolute URL, e.g. "${example}" (the one given is not shown: it may hold credentials).`);
  }
}

export function parseBaseUrl(value: string | URL): Base {
  const url = absoluteUrl(value, 'baseUrl', 'https://rest-api.telesign.com');
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ConfigurationError(`baseUrl must be an http(s) URL, got ${url.protocol}.`);
  if (url.username || url.password) throw new ConfigurationError('baseUrl must not contain credentials: pass customerId and apiKey instead.');
  if (url.search || url.hash || /[?#]/.test(String(value))) throw new ConfigurationError('baseUrl must not have a query or a fragment: give query parameters per request.');
  return { origin: url.origin, prefix: url.pathname.replace(/\/$/, '') };
}

// RFC 3986 path characters (pchar) and "/": what the URL parser leaves exactly as it is.
const PATH_CHARS = /^[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*$/;
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/** Spaces and C0/DEL controls: the URL parser strips tabs and newlines, and trims the ends. */
function hasControlOrSpace(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code <= 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** Why `path` is refused, or undefined when it is safe to put under the base. */
function pathProblem(path: string): string | undefined {
  if (!path.startsWith('/')) return 'must start with "/", e.g. "/v1/messaging".';
  if (path.includes('\\')) return 'must not contain a backslash ("\\"): URL parsers read it as "/".';
  if (/[?#]/.test(path)) return 'must not contain "?" or "#": pass query parameters in `query`.';
  if (hasControlOrSpace(path)) return 'must not contain spaces or control characters: percent-encode them (encodeURIComponent).';
  if (!PATH_CHARS.test(path)) return 'may contain only ASCII letters, digits, "/" and -._~!$&\'()*+,;=:@ : percent-encode anything else (encodeURIComponent).';
  if (/%(?![0-9A-Fa-f]{2})/.test(path)) return 'has a "%" that is not a %XX escape: encode "%" as "%25".';
  if (/%(?:2f|5c)/i.test(path)) return 'must not contain %2F or %5C: servers may read them as separators.';
  if (path.includes('//')) return 'must not contain "//": an empty segment, and at the start another host.';
  if (path.split('/').some((segment) => DOT_SEGMENT.test(segment))) return 'must not contain "." or ".." segments: give the path as meant.';
  return undefined;
}

/**
 * The URL of `path` under `base`, with the query appended. Throws a ValidationError (field
 * `path`) unless the result is `base.origin + base.prefix + path` exactly.
 */
export function resolvePath(base: Base, path: unknown, query: Record<string, string | undefined> | undefined): URL {
  if (typeof path !== 'string') throw new ValidationError('path', 'must be a string starting with "/", e.g. "/v1/messaging".');
  const expected = base.prefix + path;
  const href = base.origin + expected;
  let url: URL;
  if (checked.has(href)) {
    url = new URL(href);
  } else {
    const problem = pathProblem(path);
    if (problem) throw new ValidationError('path', problem);
    url = new URL(expected, base.origin);
    if (url.origin !== base.origin || url.pathname !== expected || url.search || url.hash || url.username || url.password) {
      throw new ValidationError('path', `must stay under baseUrl (${base.origin}${base.prefix}/): ${JSON.stringify(path)} does not.`);
    }
    if (checked.size >= CHECKED_MAX) checked.clear();
    checked.add(href);
  }
  if (query) for (const key of Object.keys(query)) if (query[key] !== undefined) url.searchParams.append(key, query[key]);
  return url;
}

/** URLs that passed the checks (each the exact URL its origin and path parse to): a repeated path is not checked again. */
const checked = new Set<string>();
const CHECKED_MAX = 256;

import { encodeBase64 } from './base64.js';
import { fromUtf8 } from './bytes.js';
import { canonicalHeaderValue, resourceOf, stringToSignParts } from './canonical.js';
import { type Algorithm, DEFAULT_ALGORITHM, HEADER, TS_HEADER_PREFIX } from './constants.js';
import { type Credentials, decodeCredentials } from './credentials.js';
import { formatHttpDate } from './date.js';
import { AuthError } from './errors.js';
import { isValidNonce } from './nonce.js';
import { parseAlgorithm, prepareMac } from './hmac.js';

export interface SignableRequest {
  method: string;
  /** Absolute URL, or a request target starting with "/". Only the path is signed. */
  url: string | URL;
  /** Sent and signed as given; `application/x-www-form-urlencoded` for forms, `application/json` for JSON. */
  contentType?: string;
  /** The body exactly as it will be sent. Bytes are signed as bytes. */
  body?: string | Uint8Array;
  /** Extra x-ts-* headers to send and sign. */
  headers?: Record<string, string>;
}

export interface SignOptions {
  algorithm?: Algorithm;
  /** Which header carries the timestamp. Default `x-ts-date`; `date` reproduces the official clients. */
  dateHeader?: 'x-ts-date' | 'date';
  /** The timestamp. A string is sent verbatim. Default: now. */
  date?: Date | string;
  /** The nonce. Default: a fresh `crypto.randomUUID()`; `false` sends none. */
  nonce?: string | false;
}

export interface SignedRequest {
  /** Headers to send, lower-case names: authorization, x-ts-auth-method, the date header, nonce, content-type, extras. */
  headers: Record<string, string>;
  /** What was signed, for debugging a signature mismatch (contains no secret). */
  stringToSign: string;
}

export interface Signer {
  readonly customerId: string;
  sign(request: SignableRequest, options?: SignOptions): SignedRequest;
}

const CONTROLLED = new Set<string>([HEADER.tsAuthMethod, HEADER.tsDate, HEADER.tsNonce, HEADER.authorization]);

function checkAlgorithm(algorithm: string): Algorithm {
  const parsed = parseAlgorithm(algorithm);
  if (!parsed || parsed !== algorithm) {
    throw new AuthError('invalid_algorithm', `algorithm must be 'HMAC-SHA256' or 'HMAC-SHA1', got ${JSON.stringify(algorithm)}.`);
  }
  return parsed;
}

function extraHeaders(headers: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const lower = name.trim().toLowerCase();
    if (!lower.startsWith(TS_HEADER_PREFIX)) {
      throw new AuthError('invalid_header', `Only x-ts-* headers are signed; "${name}" is not one. Send other headers yourself.`);
    }
    if (CONTROLLED.has(lower)) {
      throw new AuthError('invalid_header', `"${lower}" is set by the signer; use the algorithm, date, dateHeader or nonce option instead.`);
    }
    if (lower in out) throw new AuthError('invalid_header', `Header "${lower}" is given twice; each x-ts-* header is signed once.`);
    if (typeof value !== 'string') throw new AuthError('invalid_header', `Header "${lower}" must have a string value.`);
    out[lower] = canonicalHeaderValue(value);
  }
  return out;
}

/**
 * A random UUID v4. `crypto.randomUUID` exists only in secure contexts (a page served over plain
 * HTTP has no such function), so fall back to `getRandomValues`, which every runtime has.
 */
function randomUuid(): string {
  const c = globalThis.crypto;
  if (typeof c.randomUUID === 'function') return c.randomUUID();
  const b = c.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function nonceOf(option: string | false | undefined): string | undefined {
  if (option === false) return undefined;
  if (option === undefined) return randomUuid();
  if (typeof option !== 'string' || !isValidNonce(option)) {
    throw new AuthError('invalid_request', 'nonce must be a string of 4 to 256 characters, or false to send none.');
  }
  return option;
}

/**
 * A signer for one set of credentials: the key is checked, decoded and its HMAC state prepared
 * once, so each signature costs only the hashing of the request. Use it on hot paths.
 */
export function createSigner(credentials: Credentials, defaults: SignOptions = {}): Signer {
  const key = decodeCredentials(credentials);
  const macs: Partial<Record<Algorithm, ReturnType<typeof prepareMac>>> = {};
  const macFor = (algorithm: Algorithm) => (macs[algorithm] ??= prepareMac(algorithm, key));
  const { customerId } = credentials;

  return {
    customerId,
    sign(request, options = {}) {
      const algorithm = checkAlgorithm(options.algorithm ?? defaults.algorithm ?? DEFAULT_ALGORITHM);
      const dateHeader = options.dateHeader ?? defaults.dateHeader ?? HEADER.tsDate;
      if (dateHeader !== HEADER.tsDate && dateHeader !== HEADER.date) {
        throw new AuthError('invalid_request', `dateHeader must be 'x-ts-date' or 'date', got ${JSON.stringify(dateHeader)}.`);
      }
      if (!request || typeof request.method !== 'string' || request.method === '') {
        throw new AuthError('invalid_request', 'request.method is required (GET, POST, ...).');
      }
      if (typeof request.url !== 'string' && !(request.url instanceof URL)) {
        throw new AuthError('invalid_request', 'request.url must be a URL or a string.');
      }
      const method = request.method.toUpperCase();
      const when = options.date ?? defaults.date ?? new Date();
      const date = typeof when === 'string' ? when : formatHttpDate(when);
      const nonce = nonceOf(options.nonce ?? defaults.nonce);

      const headers: Record<string, string> = { [HEADER.tsAuthMethod]: algorithm };
      if (dateHeader === HEADER.tsDate) headers[HEADER.tsDate] = date;
      if (nonce !== undefined) headers[HEADER.tsNonce] = nonce;
      Object.assign(headers, extraHeaders(request.headers));
      const tsHeaders = { ...headers };

      // URL objects serialise their path percent-encoded, exactly as fetch sends it.
      const url = typeof request.url === 'string' ? request.url : request.url.href;
      const parts = stringToSignParts({
        method,
        contentType: request.contentType,
        date: dateHeader === HEADER.date ? date : undefined,
        tsHeaders,
        body: request.body,
        resource: resourceOf(url),
      });
      const signature = encodeBase64(macFor(algorithm)(parts));

      headers[HEADER.authorization] = `TSA ${customerId}:${signature}`;
      if (dateHeader === HEADER.date) headers[HEADER.date] = date;
      if (request.contentType) headers[HEADER.contentType] = request.contentType;
      return { headers, stringToSign: parts.map(fromUtf8).join('') };
    },
  };
}

/** Signs one request (Digest / TSA). For many requests with the same key, `createSigner` is faster. */
export function signRequest(request: SignableRequest, credentials: Credentials, options?: SignOptions): SignedRequest {
  return createSigner(credentials).sign(request, options);
}

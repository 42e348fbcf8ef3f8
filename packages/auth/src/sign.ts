import { canonicalHeaderValue, canonicalTsHeaders, resourceOf, signingParts, textOf } from './canonical.js';
import { type Algorithm, DEFAULT_ALGORITHM, TS_HEADER_PREFIX } from './constants.js';
import { type Credentials, decodeCredentials } from './credentials.js';
import { formatHttpDate } from './date.js';
import { AuthError } from './errors.js';
import { isValidNonce } from './nonce.js';
import { signingMac } from './hmac.js';
import type { MacProvider } from './mac.js';
import { randomUuid } from '#hashes';

export interface SignableRequest {
  method: string;
  /** Absolute URL, or a request target starting with "/". Only the path is signed. */
  url: string | URL;
  /** Sent and signed as given; `application/x-www-form-urlencoded` for forms, `application/json` for JSON. */
  contentType?: string | undefined;
  /** The body exactly as it will be sent. Bytes are signed as bytes. */
  body?: string | Uint8Array | undefined;
  /** Extra x-ts-* headers to send and sign. */
  headers?: Record<string, string> | undefined;
}

export interface SignOptions {
  algorithm?: Algorithm | undefined;
  /** Which header carries the timestamp. Default `x-ts-date`; `date` reproduces the official clients. */
  dateHeader?: 'x-ts-date' | 'date' | undefined;
  /** The timestamp. A string is sent verbatim. Default: now. */
  date?: Date | string | undefined;
  /** The nonce. Default: a fresh `crypto.randomUUID()`; `false` sends none. */
  nonce?: string | false | undefined;
}

export interface SignerOptions extends SignOptions {
  /**
   * The HMAC implementation. Default: node:crypto on Node, pure (@noble/hashes) elsewhere;
   * HMAC-SHA256, and HMAC-SHA1 after `enableSha1()` (or pass `mac: prepareMac`, which has both).
   */
  mac?: MacProvider | undefined;
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

// The headers the signer sets itself (the names of HEADER).
const CONTROLLED = new Set<string>(['x-ts-auth-method', 'x-ts-date', 'x-ts-nonce', 'authorization']);

function checkAlgorithm(algorithm: string): Algorithm {
  if (algorithm === 'HMAC-SHA256' || algorithm === 'HMAC-SHA1') return algorithm;
  throw new AuthError('invalid_algorithm', `algorithm must be 'HMAC-SHA256' or 'HMAC-SHA1', got ${JSON.stringify(algorithm)}.`);
}

/** Adds the extra x-ts-* headers to the signer's own (already in `headers`), lower-case and canonical. */
function addExtraHeaders(headers: Record<string, string>, extras: Record<string, string>): void {
  for (const [name, value] of Object.entries(extras)) {
    const lower = name.trim().toLowerCase();
    if (!lower.startsWith(TS_HEADER_PREFIX)) {
      throw new AuthError('invalid_header', `Only x-ts-* headers are signed: send "${name}" yourself.`);
    }
    if (CONTROLLED.has(lower)) {
      throw new AuthError('invalid_header', `"${lower}" is the signer's: use the algorithm, date, dateHeader or nonce option.`);
    }
    if (lower in headers) throw new AuthError('invalid_header', `Header "${lower}" is given twice: give it once.`);
    if (typeof value !== 'string') throw new AuthError('invalid_header', `Header "${lower}" must be a string.`);
    headers[lower] = canonicalHeaderValue(value);
  }
}

function nonceOf(option: string | false | undefined): string | undefined {
  if (option === false) return undefined;
  if (option === undefined) return randomUuid();
  if (typeof option !== 'string' || !isValidNonce(option)) {
    throw new AuthError('invalid_request', 'nonce must be a string of 4 to 256 characters, or false to send none.');
  }
  return canonicalHeaderValue(option);
}

/**
 * A signer for one set of credentials: the key is checked, decoded and its HMAC state prepared
 * once, so each signature costs only the hashing of the request. Use it on hot paths.
 *
 * @example
 * ```ts
 * import { createSigner } from '@x/auth';
 *
 * const signer = createSigner({ customerId, apiKey }); // the key decoded and the HMAC prepared once
 * const { headers } = signer.sign({ method: 'GET', url: 'https://rest-api.telesign.com/v1/messaging/ABC' });
 * await fetch('https://rest-api.telesign.com/v1/messaging/ABC', { headers });
 * ```
 */
export function createSigner(credentials: Credentials, defaults: SignerOptions = {}): Signer {
  const key = decodeCredentials(credentials);
  const prepare = defaults.mac ?? signingMac;
  const macs: Partial<Record<Algorithm, ReturnType<MacProvider>>> = {};
  const macFor = (algorithm: Algorithm) => (macs[algorithm] ??= prepare(algorithm, key));
  const { customerId } = credentials;
  // The default algorithm's HMAC now: a signer that cannot sign fails here, not at its first use.
  macFor(checkAlgorithm(defaults.algorithm ?? DEFAULT_ALGORITHM));
  // This signer's date of the current second, formatted once a second: signing at least as fast as
  // the official client is a floor (BENCHMARKS.md).
  let second = Number.NaN;
  let secondDate = '';
  const currentDate = () => {
    const now = Math.floor(Date.now() / 1000);
    if (now !== second) secondDate = formatHttpDate(new Date((second = now) * 1000));
    return secondDate;
  };

  return {
    customerId,
    sign(request, options = {}) {
      const algorithm = checkAlgorithm(options.algorithm ?? defaults.algorithm ?? DEFAULT_ALGORITHM);
      const dateHeader = options.dateHeader ?? defaults.dateHeader ?? 'x-ts-date';
      if (dateHeader !== 'x-ts-date' && dateHeader !== 'date') {
        throw new AuthError('invalid_request', `dateHeader must be 'x-ts-date' or 'date', got ${JSON.stringify(dateHeader)}.`);
      }
      if (!request || typeof request.method !== 'string' || request.method === '') {
        throw new AuthError('invalid_request', 'request.method is required (GET, POST, ...).');
      }
      if (typeof request.url !== 'string' && !(request.url instanceof URL)) {
        throw new AuthError('invalid_request', 'request.url must be a URL or a string.');
      }
      const method = request.method.toUpperCase();
      const when = options.date ?? defaults.date;
      const date = when === undefined ? currentDate() : typeof when === 'string' ? canonicalHeaderValue(when) : formatHttpDate(when);
      const nonce = nonceOf(options.nonce ?? defaults.nonce);

      // The x-ts-* headers first: they are signed as canonical lines, sorted by name. The signer's
      // own are set in name order (auth-method < date < nonce); extras are sorted in with them.
      const headers: Record<string, string> = { 'x-ts-auth-method': algorithm };
      if (dateHeader === 'x-ts-date') headers['x-ts-date'] = date;
      if (nonce !== undefined) headers['x-ts-nonce'] = nonce;
      let tsLines: string;
      if (request.headers) {
        addExtraHeaders(headers, request.headers);
        tsLines = canonicalTsHeaders(headers);
      } else {
        tsLines = '';
        for (const name in headers) tsLines += `${name}:${headers[name]}\n`;
      }

      // A URL object serialises (String gives its href) with its path percent-encoded, exactly as fetch sends it.
      const url = String(request.url);
      const parts = signingParts(method, request.contentType, dateHeader === 'date' ? date : undefined, tsLines, request.body, resourceOf(url));
      const signature = macFor(algorithm)(parts);

      headers.authorization = `TSA ${customerId}:${signature}`;
      if (dateHeader === 'date') headers.date = date;
      if (request.contentType) headers['content-type'] = request.contentType;
      return { headers, stringToSign: textOf(parts) };
    },
  };
}

/**
 * Signs one request (Digest / TSA). One-off: the key is decoded and its HMAC prepared on each call
 * (nothing is kept between calls); on a hot path, hold a signer from `createSigner`.
 *
 * @example
 * ```ts
 * import { signRequest } from '@x/auth';
 *
 * const body = 'phone_number=15555551234&message=hi&message_type=ARN';
 * const { headers, stringToSign } = signRequest(
 *   { method: 'POST', url: 'https://rest-api.telesign.com/v1/messaging', contentType: 'application/x-www-form-urlencoded', body },
 *   { customerId, apiKey },
 * );
 * await fetch('https://rest-api.telesign.com/v1/messaging', { method: 'POST', headers, body });
 * ```
 */
export function signRequest(request: SignableRequest, credentials: Credentials, options?: SignOptions): SignedRequest {
  // Prepared for the algorithm this request uses only (a signer prepares its default at creation).
  return createSigner(credentials, { algorithm: options?.algorithm }).sign(request, options);
}

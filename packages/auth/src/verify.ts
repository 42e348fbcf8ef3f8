import { parseBasicToken } from './basic.js';
import { canonicalHeaderValue, canonicalTsLines, resourceOf, signingParts, textOf } from './canonical.js';
import { timingSafeEqual } from './compare.js';
import { CLOCK_SKEW_MS, HEADER, NONCE_WINDOW_MS } from './constants.js';
import { type Credentials, decodeCredentials } from './credentials.js';
import { parseHttpDate } from './date.js';
import { VERIFY_FAILURE_MESSAGES, type VerifyFailure } from '@x/service/failures';
import { AuthError } from './errors.js';
import { parseAlgorithm, prepareMac, type KeyCache } from './hmac.js';
import type { MacProvider } from './mac.js';
import { isValidNonce } from './nonce.js';
import type { ReplayStore } from './replay.js';
import { readClock, type Clock } from './clock.js';

/**
 * Request headers as a server has them: a Headers object, or a Node-style record (names in any
 * case, a value or a list of values).
 */
export type HeaderInput = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

export interface VerifiableRequest {
  method: string;
  /** The request target as received (`/v1/messaging?x=1`) or an absolute URL. */
  url: string;
  headers: HeaderInput;
  /** The raw body as received. */
  body?: string | Uint8Array | undefined;
}

export interface VerifyOptions {
  /**
   * Looks up the credentials of a customer id as sent; undefined for an unknown customer. The
   * `customerId` it returns is the identity the result reports and the replay store keys on, so a
   * case-insensitive lookup is safe. Anything without a non-empty string `apiKey` (e.g. what a
   * plain object gives for `__proto__`) is an unknown customer. An error it throws is not caught.
   */
  credentials: (customerId: string) => Credentials | undefined | Promise<Credentials | undefined>;
  /** Clock: a Date or epoch milliseconds. Default `Date.now`. */
  now?: Clock | undefined;
  /** Where nonces are claimed. Without one, nonces are checked for length but replays are not caught. */
  replayStore?: ReplayStore | undefined;
  /**
   * Accept `Authorization: Basic` (the API key in every request). Default false: enable it only
   * where your server must accept what the service accepts (the emulator does).
   */
  allowBasic?: boolean | undefined;
  /**
   * Refuse signed requests without X-TS-Nonce (`missing_nonce`). Default false, as the service: a
   * request without a nonce can be replayed within the clock window (15 minutes).
   */
  requireNonce?: boolean | undefined;
  /** Accept `Authorization: TSA` (Digest). Default true. */
  allowDigest?: boolean | undefined;
  /** Allowed distance from the clock. Default 15 minutes. */
  clockSkewMs?: number | undefined;
  /**
   * The HMAC implementation. Default `prepareMac`: node:crypto on Node, pure (@noble/hashes)
   * elsewhere. Not used with a `keyCache` (its own `mac` is).
   */
  mac?: MacProvider | undefined;
  /**
   * Prepared keys to reuse across calls (`createKeyCache({ mac })`, held by you: one per server or
   * route). Without one, each call decodes the customer's key and prepares its HMAC anew.
   */
  keyCache?: KeyCache | undefined;
}

export type VerifyResult =
  | { ok: true; customerId: string; scheme: 'basic' | 'digest'; nonce?: string; timestamp?: number }
  | {
      ok: false;
      status: 400 | 401;
      reason: VerifyFailure;
      /** A sentence for logs and error bodies; never contains a secret. */
      message: string;
      customerId?: string;
      /** On `signature_mismatch`: the string the verifier signed, to diff against the client's. */
      stringToSign?: string;
    };

const fail = (reason: VerifyFailure, extra: { customerId?: string; stringToSign?: string } = {}): VerifyResult => ({
  ok: false,
  status: 401, // every verification failure answers 401 (VERIFY_FAILURES[reason].status)
  reason,
  message: VERIFY_FAILURE_MESSAGES[reason],
  ...extra,
});

/**
 * Lower-cased header map from a Headers object or a Node-style record; repeated values joined by ", ".
 *
 * @example
 * ```ts
 * import { headerMap } from '@x/auth/protocol';
 *
 * const headers = headerMap({ 'X-TS-Nonce': 'abc', Accept: ['a', 'b'] });
 * headers.get('x-ts-nonce'); // 'abc'
 * ```
 */
export function headerMap(input: HeaderInput): Map<string, string> {
  const map = new Map<string, string>();
  const add = (name: string, value: string) => {
    const lower = name.toLowerCase();
    const prior = map.get(lower);
    map.set(lower, prior === undefined ? value : `${prior}, ${value}`);
  };
  if (typeof Headers !== 'undefined' && input instanceof Headers) {
    input.forEach((value, name) => add(name, value));
    return map;
  }
  for (const [name, value] of Object.entries(recordOf(input))) {
    if (typeof value === 'string') add(name, value);
    else if (Array.isArray(value)) for (const item of value) if (typeof item === 'string') add(name, item);
  }
  return map;
}

/**
 * One header from a Headers object or a Node-style record (exact lower-case key first, then any case).
 *
 * @example
 * ```ts
 * import { headerValue } from '@x/auth/protocol';
 *
 * headerValue(new Headers({ Authorization: 'TSA id:sig' }), 'authorization'); // 'TSA id:sig'
 * ```
 */
export function headerValue(input: HeaderInput, name: string): string | undefined {
  if (typeof Headers !== 'undefined' && input instanceof Headers) return input.get(name) ?? undefined;
  const record = recordOf(input);
  let value = record[name];
  if (value === undefined) {
    for (const key in record) if (key.toLowerCase() === name) value = record[key];
  }
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.filter((v) => typeof v === 'string').join(', ');
  return undefined;
}


/**
 * The record of a HeaderInput. A Map is refused (its entries are not properties, so it would read
 * as no headers at all): give a Headers object or a record.
 */
function recordOf(input: HeaderInput): Readonly<Record<string, string | readonly string[] | undefined>> {
  if (input instanceof Map) {
    throw new AuthError('invalid_request', 'headers must be a Headers object or a record of names to values, not a Map: pass new Headers(map) or Object.fromEntries(map).');
  }
  return (input ?? {}) as Readonly<Record<string, string | readonly string[] | undefined>>;
}

/** The credentials a lookup found, or undefined for anything that is not usable credentials. */
function usable(found: unknown, customerId: string): Credentials | undefined {
  if (typeof found !== 'object' || found === null) return undefined;
  const { apiKey, customerId: known } = found as Partial<Credentials>;
  if (typeof apiKey !== 'string' || apiKey === '') return undefined;
  return { customerId: typeof known === 'string' && known !== '' ? known : customerId, apiKey };
}

/** The usable credentials of a customer id. */
const lookUp = async (options: VerifyOptions, customerId: string): Promise<Credentials | undefined> => usable(await options.credentials(customerId), customerId);

// The customer id: visible ASCII without ":", as credentials require (anything else is malformed, never looked up).
const TSA = /^TSA ([!-9;-~]{1,256}):([A-Za-z0-9+/]{1,200}={0,2})$/i;
const BASIC = /^Basic ([A-Za-z0-9+/]{1,2048}={0,2})$/i;

/**
 * Verifies a request signed as the service requires (Digest/TSA, or Basic). Follows the document
 * step by step and returns a typed reason; it never throws on what the client sent. The nonce is
 * claimed only after the signature holds, so nobody can burn another customer's nonces.
 *
 * @example
 * ```ts
 * import { createMemoryReplayStore, verifyRequest } from '@x/auth';
 *
 * const replayStore = createMemoryReplayStore();
 * async function handle(request: Request): Promise<Response> {
 *   const body = new Uint8Array(await request.arrayBuffer()); // the raw bytes, never re-serialised
 *   const result = await verifyRequest({ method: request.method, url: request.url, headers: request.headers, body }, { credentials: lookup, replayStore });
 *   if (!result.ok) return Response.json({ error: result.reason }, { status: result.status });
 *   return Response.json({ customer: result.customerId });
 * }
 * ```
 */
export async function verifyRequest(request: VerifiableRequest, options: VerifyOptions): Promise<VerifyResult> {
  const headers = headerMap(request?.headers ?? {});
  const authorization = headers.get(HEADER.authorization)?.trim();
  if (!authorization) return fail('missing_authorization');

  const basic = BASIC.exec(authorization);
  if (basic) {
    if (options.allowBasic !== true) return fail('basic_not_allowed');
    const given = parseBasicToken(basic[1]!);
    if (!given) return fail('malformed_authorization');
    const known = await lookUp(options, given.customerId);
    if (!known) return fail('unknown_customer', { customerId: given.customerId });
    if (!timingSafeEqual(given.apiKey, known.apiKey)) return fail('invalid_api_key', { customerId: known.customerId });
    return { ok: true, customerId: known.customerId, scheme: 'basic' };
  }

  const tsa = TSA.exec(authorization);
  if (!tsa) return fail('malformed_authorization');
  if (options.allowDigest === false) return fail('digest_not_allowed');
  const signature = tsa[2]!;
  const known = await lookUp(options, tsa[1]!);
  if (!known) return fail('unknown_customer', { customerId: tsa[1]! });
  // From here on, the customer is who the credentials store says (the replay key depends on it).
  const customerId = known.customerId;

  const algorithm = parseAlgorithm(headers.get(HEADER.tsAuthMethod) ?? '');
  if (!algorithm) return fail('unsupported_auth_method', { customerId });

  const tsDate = headers.get(HEADER.tsDate);
  const date = headers.get(HEADER.date);
  const stamp = tsDate ?? date;
  if (stamp === undefined || stamp.trim() === '') return fail('missing_date', { customerId });
  const timestamp = parseHttpDate(stamp);
  if (timestamp === undefined) return fail('invalid_date', { customerId });
  const now = readClock(options.now);
  if (Math.abs(now - timestamp) > (options.clockSkewMs ?? CLOCK_SKEW_MS)) return fail('clock_skew', { customerId });

  // The nonce as signed (unfolded, trimmed): the replay key must be exactly what was verified.
  const sent = headers.get(HEADER.tsNonce);
  const nonce = sent === undefined ? undefined : canonicalHeaderValue(sent);
  if (nonce === undefined) {
    if (options.requireNonce) return fail('missing_nonce', { customerId });
  } else if (!isValidNonce(nonce)) return fail('invalid_nonce', { customerId });

  // Built from the map (names lower-cased once): the same string as stringToSign() gives for these headers.
  const parts = signingParts(
    String(request.method ?? '').toUpperCase(),
    headers.get(HEADER.contentType),
    tsDate === undefined ? date : '',
    canonicalTsLines(headers),
    request.body,
    resourceOf(String(request.url ?? '/')),
  );
  const mac = options.keyCache ? options.keyCache.mac(algorithm, known.apiKey) : (options.mac ?? prepareMac)(algorithm, decodeCredentials(known));
  if (!timingSafeEqual(signature, mac(parts))) {
    return fail('signature_mismatch', { customerId, stringToSign: textOf(parts) });
  }

  if (nonce !== undefined && options.replayStore) {
    if (!(await options.replayStore.claim(`${customerId}:${nonce}`, NONCE_WINDOW_MS))) return fail('nonce_reused', { customerId });
  }
  return nonce === undefined ? { ok: true, customerId, scheme: 'digest', timestamp } : { ok: true, customerId, scheme: 'digest', nonce, timestamp };
}

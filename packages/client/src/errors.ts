import { XError } from '@x/auth';
import { VERIFY_FAILURE_ADVICE, verifyFailureOf, type VerifyFailure } from '@x/service/failures';
import { maskedCause, maskSecrets, maskSecretsIn } from './secrets.js';
import type { ServiceErrorBody } from './types.js';

// The key of the brand XError reads (see @x/auth's errors.ts): each class names itself, so that
// `instanceof` holds across the ESM and CommonJS copies of this package.
export const BRAND: unique symbol = Symbol.for('@x/error.brand');

export type ClientErrorCode =
  | 'configuration_error'
  | 'validation_error'
  | 'api_error'
  | 'authentication_error'
  | 'rate_limited'
  | 'invalid_response'
  | 'timeout'
  | 'network_error'
  | 'aborted'
  | 'redirect'
  | 'response_too_large'
  | IdempotencyErrorCode;

/**
 * The codes of an `IdempotencyError` (`@x/client/idempotency`): `idempotency_unknown` (the send with
 * this key may have gone out), `idempotency_in_progress` (another call with the key has not
 * finished), `idempotency_store` (the store failed before anything was sent),
 * `idempotency_mismatch` (the key was used with other parameters: nothing sent, use a new key).
 */
export type IdempotencyErrorCode = 'idempotency_unknown' | 'idempotency_in_progress' | 'idempotency_store' | 'idempotency_mismatch';

/** The codes of an `ApiError`: the service answered (`AuthenticationError` and `RateLimitError` are ApiErrors too). */
export type ApiErrorCode = 'api_error' | 'invalid_response' | 'authentication_error' | 'rate_limited';

/**
 * Base of every error this client throws (itself an `XError` of @x/auth). `code` is stable;
 * messages never contain a secret. To narrow a caught error on its code, use `isClientError`.
 */
export class ClientError extends XError {
  static readonly [BRAND]: string = '@x/client/ClientError';
  override name = 'ClientError';
  declare readonly code: ClientErrorCode;

  constructor(code: ClientErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

/** Wrong options: no fetch, bad base URL, missing or invalid credentials. */
export class ConfigurationError extends ClientError {
  static override readonly [BRAND]: string = '@x/client/ConfigurationError';
  override name = 'ConfigurationError';
  declare readonly code: 'configuration_error';
  constructor(message: string, options?: { cause?: unknown }) {
    super('configuration_error', message, options);
  }
}

/** A parameter was rejected before anything was sent. */
export class ValidationError extends ClientError {
  static override readonly [BRAND]: string = '@x/client/ValidationError';
  override name = 'ValidationError';
  declare readonly code: 'validation_error';
  declare readonly field: string;
  constructor(field: string, message: string) {
    super('validation_error', `${field}: ${message}`);
    this.field = field;
  }
}

interface ApiErrorInit {
  status: number;
  headers: Headers;
  body: unknown;
  method: string;
  path: string;
  /** From Retry-After (429, 503), in milliseconds. */
  retryAfterMs?: number | undefined;
}

const bodyOf = (body: unknown) => (typeof body === 'object' && body !== null ? body : {}) as ServiceErrorBody;

/**
 * Why an answer that is not JSON and has no service code is probably not the service's (every
 * answer of the service is JSON with a code): another app or a proxy answered at baseUrl.
 */
function notTheService(headers: Headers): string {
  const type = headers.get('content-type')?.split(';')[0]?.trim().slice(0, 60);
  return `The answer (${type || 'no content type'}, not JSON, no service code) does not look like the service's: check baseUrl and any proxy.`;
}

/**
 * The service answered with a 4xx or 5xx (`api_error`), or a 2xx that is not JSON
 * (`invalid_response`). The parsed body is kept.
 */
export class ApiError extends ClientError {
  static override readonly [BRAND]: string = '@x/client/ApiError';
  override name = 'ApiError';
  declare readonly code: ApiErrorCode;
  /** HTTP status. */
  declare readonly status: number;
  declare readonly headers: Headers;
  /** The parsed JSON body, or the text when it was not JSON; verification codes masked (an answer may echo them). */
  declare readonly body: unknown;
  /** `status.code` of the body (positive family) or the first `errors[].code` (Verify family). */
  declare readonly serviceCode: number | undefined;
  declare readonly referenceId: string | undefined;
  /** When the service asked to wait before trying again (Retry-After on 429 and 503), in milliseconds. */
  declare readonly retryAfterMs: number | undefined;

  constructor(init: ApiErrorInit, code: ApiErrorCode = 'api_error', message?: string) {
    const shown = maskSecretsIn(init.body);
    const body = bodyOf(shown);
    const first = Array.isArray(body.errors) ? body.errors[0] : undefined;
    const serviceCode = first?.code ?? body.status?.code;
    const description = first?.description ?? body.status?.description;
    const said = message ?? `${init.method} ${init.path} failed with HTTP ${init.status}${serviceCode !== undefined ? ` (${serviceCode}${description ? `: ${description}` : ''})` : ''}.`;
    super(code, serviceCode === undefined && typeof init.body !== 'object' ? `${said} ${notTheService(init.headers)}` : said);
    this.status = init.status;
    this.headers = init.headers;
    this.body = shown;
    this.serviceCode = serviceCode;
    this.referenceId = typeof body.reference_id === 'string' ? body.reference_id : undefined;
    this.retryAfterMs = init.retryAfterMs;
  }
}

/** What each line of a string to sign is (interface document: method, content type, Date, x-ts-* headers, body, resource). */
function lineName(line: string, index: number, count: number): string {
  if (index === 0) return 'the method';
  if (index === 1) return 'the content type';
  if (index === 2) return 'the Date header';
  if (index === count - 1) return 'the resource (path)';
  const header = /^(x-ts-[^:]*):/.exec(line);
  return header ? `the ${header[1]} header` : 'the body';
}

/** Where two strings to sign part: the line number (from 1) and what that line is on each side. Never a line's content. */
function firstDifference(ours: string, theirs: string): string {
  const a = ours.split('\n');
  const b = theirs.split('\n');
  const at = a.findIndex((line, i) => line !== b[i]);
  const index = at === -1 ? a.length : at;
  const what = (lines: string[]) => (index < lines.length ? lineName(lines[index]!, index, lines.length) : 'nothing (the string ends)');
  const here = what(a);
  const there = what(b);
  return `line ${index + 1} is the first that differs (${here === there ? here : `here ${here}, at the service ${there}`})`;
}

/** What to do about a 401, from what is known: the reason, the scheme, both strings to sign. */
function adviceFor(reason: VerifyFailure | undefined, scheme: 'digest' | 'basic', ours: string | undefined, theirs: string | undefined): string | undefined {
  if (!reason) return undefined;
  if (reason !== 'signature_mismatch' || scheme === 'basic') return VERIFY_FAILURE_ADVICE[reason];
  if (ours !== undefined && theirs !== undefined) {
    if (ours === theirs) {
      return 'The service computed the same string to sign as this client, so only the key can differ: check that apiKey is the API key of this customer ID, as issued (base64).';
    }
    return `Compare error.stringToSign with error.serverStringToSign: ${firstDifference(ours, theirs)}. Something between this client and the service changed the request (a proxy rewriting the path, a header or the body), or baseUrl has a path the service does not see.`;
  }
  return 'The service does not say what it signed. Check the API key, and that nothing between this client and the service changes the request (a proxy rewriting the path, a header or the body).';
}

/**
 * 401: the service refused the credentials or the signature. The message says what to do: a
 * wrong key when both sides signed the same string, the line that differs when they did not.
 */
export class AuthenticationError extends ApiError {
  static override readonly [BRAND]: string = '@x/client/AuthenticationError';
  override name = 'AuthenticationError';
  declare readonly code: 'authentication_error';
  /**
   * Why, when the service said it (its code, read with `verifyFailureOf` of @x/auth). With Basic
   * auth, the service's "Invalid Signature" (10008) is `invalid_api_key`: nothing was signed.
   */
  declare readonly reason: VerifyFailure | undefined;
  /** What this client signed, verification codes masked; undefined with Basic auth. */
  declare readonly stringToSign: string | undefined;
  /** What the service says it verified (`signature_string`), when it says it; verification codes masked. */
  declare readonly serverStringToSign: string | undefined;
  /** Server clock minus the clock this client signs with (response Date header), when known. */
  declare readonly clockOffsetMs: number | undefined;

  /** `scheme` defaults to `basic` when there is no string to sign, `digest` otherwise. */
  constructor(init: ApiErrorInit, stringToSign: string | undefined, localTime: number, scheme: 'digest' | 'basic' = stringToSign === undefined ? 'basic' : 'digest') {
    super(init, 'authentication_error');
    const body = bodyOf(this.body);
    const reason = this.serviceCode !== undefined ? verifyFailureOf(this.serviceCode) : undefined;
    this.reason = scheme === 'basic' && reason === 'signature_mismatch' ? 'invalid_api_key' : reason;
    // Both masked (like the log lines, and the body the service's comes from): they still compare line by line.
    this.stringToSign = stringToSign === undefined ? undefined : maskSecrets(stringToSign);
    this.serverStringToSign = typeof body.signature_string === 'string' ? body.signature_string : undefined;
    const serverDate = Date.parse(init.headers.get('date') ?? '');
    this.clockOffsetMs = Number.isNaN(serverDate) ? undefined : serverDate - localTime;
    const advice = adviceFor(this.reason, scheme, this.stringToSign, this.serverStringToSign);
    const offset = this.reason === 'clock_skew' && this.clockOffsetMs !== undefined ? ` Server clock is ${Math.round(this.clockOffsetMs / 1000)} s from this machine's.` : '';
    this.message = `${this.message}${this.reason ? ` Reason: ${this.reason}.` : ''}${advice ? ` ${advice}` : ''}${offset}`;
  }
}

/** 429. `retryAfterMs` comes from Retry-After when the service sends it. */
export class RateLimitError extends ApiError {
  static override readonly [BRAND]: string = '@x/client/RateLimitError';
  override name = 'RateLimitError';
  declare readonly code: 'rate_limited';
  constructor(init: ApiErrorInit, retryAfterMs: number | undefined) {
    super({ ...init, retryAfterMs }, 'rate_limited');
  }
}

/**
 * No answer within `timeoutMs`; the request was aborted. Like a `NetworkError`, `sent` says
 * whether it may have reached the service: an SMS or a call that timed out may have gone out.
 */
export class TimeoutError extends ClientError {
  static override readonly [BRAND]: string = '@x/client/TimeoutError';
  override name = 'TimeoutError';
  declare readonly code: 'timeout';
  /** false when provably not sent (no connection was made in time); 'unknown' otherwise. */
  declare readonly sent: false | 'unknown';
  constructor(message: string, sent: false | 'unknown' = 'unknown') {
    super('timeout', message);
    this.sent = sent;
  }
}

/**
 * The request failed below HTTP. `sent` says whether it may have reached the service; `host` and
 * `port` say where the connection was tried (the proxy's address when one was used and the
 * failure says so).
 */
export class NetworkError extends ClientError {
  static override readonly [BRAND]: string = '@x/client/NetworkError';
  override name = 'NetworkError';
  declare readonly code: 'network_error';
  /** false when provably not sent (connection refused, DNS failure); 'unknown' otherwise. */
  declare readonly sent: false | 'unknown';
  /** The host the connection was tried to, when known. */
  declare readonly host: string | undefined;
  /** The port the connection was tried to, when known. */
  declare readonly port: number | undefined;
  /** `message` and `cause` are kept with verification codes and URL credentials masked (a lower error may quote the URL). */
  constructor(message: string, sent: false | 'unknown', cause: unknown, target?: { host: string; port: number }) {
    super('network_error', maskSecrets(message), { cause: maskedCause(cause) });
    this.sent = sent;
    this.host = target?.host;
    this.port = target?.port;
  }
}

/** The caller's AbortSignal fired. */
export class AbortedError extends ClientError {
  static override readonly [BRAND]: string = '@x/client/AbortedError';
  override name = 'AbortedError';
  declare readonly code: 'aborted';
  constructor(reason: unknown) {
    super('aborted', 'The request was aborted by the caller.', { cause: reason });
  }
}
/**
 * The service answered with a redirect (3xx, or a browser's opaque redirect, status 0), or the
 * fetch function followed one. The client never follows redirects: credentials, signatures and
 * message bodies go to `baseUrl` only. Never retried.
 */
export class RedirectError extends ClientError {
  static override readonly [BRAND]: string = '@x/client/RedirectError';
  override name = 'RedirectError';
  declare readonly code: 'redirect';
  /** The HTTP status of the redirect; 0 for an opaque redirect (browsers), or the final status when `followed`. */
  declare readonly status: number;
  /** Where the answer pointed (Location), or where the fetch went when `followed`. */
  declare readonly location: string | undefined;
  /** True when the injected fetch followed the redirect despite `redirect: 'manual'`: the request did reach `location`. */
  declare readonly followed: boolean;

  /** The location is kept with verification codes and URL credentials masked (it may repeat the query). */
  constructor(init: { status: number; location: string | undefined; followed: boolean; method: string; path: string }) {
    const location = init.location === undefined ? undefined : maskSecrets(init.location);
    const to = location ? ` to ${location}` : '';
    super(
      'redirect',
      init.followed
        ? `The fetch given to createClient followed a redirect of ${init.method} ${init.path}${to}; the answer was refused. Pass a fetch that honours redirect: 'manual'.`
        : `${init.method} ${init.path} was answered with a redirect (HTTP ${init.status})${to}, which the client never follows (credentials stay with baseUrl): if the service moved, set baseUrl.`,
    );
    this.status = init.status;
    this.location = location;
    this.followed = init.followed;
  }
}

/**
 * The answer was longer than `maxResponseBytes`; the client stopped reading and aborted the
 * transfer. Never retried.
 */
export class ResponseTooLargeError extends ClientError {
  static override readonly [BRAND]: string = '@x/client/ResponseTooLargeError';
  override name = 'ResponseTooLargeError';
  declare readonly code: 'response_too_large';
  /** HTTP status of the oversized answer. */
  declare readonly status: number;
  /** The cap that was exceeded, in bytes. */
  declare readonly limitBytes: number;

  constructor(init: { status: number; limitBytes: number; method?: string; path?: string }) {
    const what = init.method && init.path ? `The answer to ${init.method} ${init.path}` : 'The answer';
    super('response_too_large', `${what} (HTTP ${init.status}) is over ${init.limitBytes} bytes; the transfer was aborted. Raise maxResponseBytes if such answers are expected.`);
    this.status = init.status;
    this.limitBytes = init.limitBytes;
  }
}

/**
 * An `IdempotencyError` (a class of `@x/client/idempotency`, so that clients that do not use
 * idempotency keys do not ship it), as `XClientError` narrows to it on its `code`.
 */
export interface IdempotencyFailure extends ClientError {
  readonly code: IdempotencyErrorCode;
  /** The key, as given (keys are not secrets). */
  readonly key: string;
  /** The operation the key is scoped to, e.g. `'POST /v1/messaging'` (what `inspect` and `release` of `@x/client/idempotency` take). */
  readonly operation: string;
  /** `'unknown'`: the send may have gone out; false: this call sent nothing. */
  readonly sent: false | 'unknown';
  /** The reference id of the send whose outcome is unknown, when the service gave one. */
  readonly referenceId: string | undefined;
}

/**
 * Every error the client throws, as a union discriminated on `code`: after `isClientError(e)`,
 * `e.code === 'rate_limited'` narrows `e` to a `RateLimitError` (and `e.retryAfterMs` type-checks).
 * `instanceof` works as well (`ClientError` is the base class of them all).
 */
export type XClientError =
  | ConfigurationError
  | ValidationError
  | (ApiError & { readonly code: 'api_error' | 'invalid_response' })
  | AuthenticationError
  | RateLimitError
  | TimeoutError
  | NetworkError
  | AbortedError
  | RedirectError
  | ResponseTooLargeError
  | IdempotencyFailure;

/**
 * Whether `error` is an error of this client (from any copy of the package, ESM or CommonJS),
 * typed as the union that narrows on `code`: `catch (e) { if (isClientError(e) && e.code === 'rate_limited') e.retryAfterMs }`.
 *
 * @example
 * ```ts
 * import { createClient, isClientError } from '@x/client';
 *
 * const client = createClient({ customerId, apiKey });
 * try {
 *   await client.verify.sms({ phoneNumber: '15555551234' });
 * } catch (e) {
 *   if (!isClientError(e)) throw e;
 *   if (e.code === 'rate_limited') log(`try again in ${e.retryAfterMs} ms`);
 *   else throw e;
 * }
 * ```
 */
export function isClientError(error: unknown): error is XClientError {
  return error instanceof ClientError;
}

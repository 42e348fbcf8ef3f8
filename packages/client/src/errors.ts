import type { VerifyFailure } from '@x/auth';
import type { ServiceErrorBody } from './types.js';

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
  | 'response_too_large';

/** Base of every error this client throws. `code` is stable; messages never contain a secret. */
export class ClientError extends Error {
  override name = 'ClientError';
  readonly code: ClientErrorCode;

  constructor(code: ClientErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** Wrong options: no fetch, bad base URL, missing or invalid credentials. */
export class ConfigurationError extends ClientError {
  override name = 'ConfigurationError';
  constructor(message: string, options?: { cause?: unknown }) {
    super('configuration_error', message, options);
  }
}

/** A parameter was rejected before anything was sent. */
export class ValidationError extends ClientError {
  override name = 'ValidationError';
  readonly field: string;
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

/** The service answered with a 4xx or 5xx. The parsed body is kept. */
export class ApiError extends ClientError {
  override name = 'ApiError';
  /** HTTP status. */
  readonly status: number;
  readonly headers: Headers;
  /** The parsed JSON body, or the text when it was not JSON. */
  readonly body: unknown;
  /** `status.code` of the body (positive family) or the first `errors[].code` (Verify family). */
  readonly serviceCode: number | undefined;
  readonly referenceId: string | undefined;
  /** When the service asked to wait before trying again (Retry-After on 429 and 503), in milliseconds. */
  readonly retryAfterMs: number | undefined;

  constructor(init: ApiErrorInit, code: ClientErrorCode = 'api_error', message?: string) {
    const body = (typeof init.body === 'object' && init.body !== null ? init.body : {}) as ServiceErrorBody;
    const first = Array.isArray(body.errors) ? body.errors[0] : undefined;
    const serviceCode = first?.code ?? body.status?.code;
    const description = first?.description ?? body.status?.description;
    super(code, message ?? `${init.method} ${init.path} failed with HTTP ${init.status}${serviceCode !== undefined ? ` (${serviceCode}${description ? `: ${description}` : ''})` : ''}.`);
    this.status = init.status;
    this.headers = init.headers;
    this.body = init.body;
    this.serviceCode = serviceCode;
    this.referenceId = typeof body.reference_id === 'string' ? body.reference_id : undefined;
    this.retryAfterMs = init.retryAfterMs;
  }
}

const REASONS: Record<number, VerifyFailure> = {
  10002: 'nonce_reused', [-30012]: 'nonce_reused',
  10003: 'invalid_nonce', [-30011]: 'invalid_nonce',
  10004: 'clock_skew', [-30010]: 'clock_skew',
  10005: 'invalid_date', [-30009]: 'invalid_date',
  10006: 'unsupported_auth_method', [-30008]: 'unsupported_auth_method',
  10007: 'missing_date', [-30007]: 'missing_date',
  10008: 'signature_mismatch', [-30006]: 'signature_mismatch',
  10013: 'unknown_customer', 10015: 'unknown_customer', [-30000]: 'unknown_customer',
  [-30004]: 'missing_authorization', [-30005]: 'malformed_authorization', [-30015]: 'invalid_api_key',
};

const ADVICE: Partial<Record<VerifyFailure, string>> = {
  clock_skew: 'The service says the request time is off: check this machine\'s clock (NTP).',
  signature_mismatch: 'Compare error.stringToSign with error.serverStringToSign to see which line differs; check the API key.',
  unknown_customer: 'Check the customer ID.',
  invalid_api_key: 'Check the API key.',
  nonce_reused: 'A nonce was sent twice; let the client generate them.',
};

/** 401: the service refused the credentials or the signature. */
export class AuthenticationError extends ApiError {
  override name = 'AuthenticationError';
  /** Why, when the service said it. */
  readonly reason: VerifyFailure | undefined;
  /** What this client signed (no secret in it). */
  readonly stringToSign: string | undefined;
  /** What the service says it verified (`signature_string`), when it says it. */
  readonly serverStringToSign: string | undefined;
  /** Server clock minus the clock this client signs with (response Date header), when known. */
  readonly clockOffsetMs: number | undefined;

  constructor(init: ApiErrorInit, stringToSign: string | undefined, localTime: number) {
    super(init, 'authentication_error');
    const body = (typeof init.body === 'object' && init.body !== null ? init.body : {}) as ServiceErrorBody;
    this.reason = this.serviceCode !== undefined ? REASONS[this.serviceCode] : undefined;
    this.stringToSign = stringToSign;
    this.serverStringToSign = typeof body.signature_string === 'string' ? body.signature_string : undefined;
    const serverDate = Date.parse(init.headers.get('date') ?? '');
    this.clockOffsetMs = Number.isNaN(serverDate) ? undefined : serverDate - localTime;
    const advice = this.reason ? ADVICE[this.reason] : undefined;
    const offset = this.reason === 'clock_skew' && this.clockOffsetMs !== undefined ? ` Server clock is ${Math.round(this.clockOffsetMs / 1000)} s from this machine's.` : '';
    this.message = `${this.message}${this.reason ? ` Reason: ${this.reason}.` : ''}${advice ? ` ${advice}` : ''}${offset}`;
  }
}

/** 429. `retryAfterMs` comes from Retry-After when the service sends it. */
export class RateLimitError extends ApiError {
  override name = 'RateLimitError';
  constructor(init: ApiErrorInit, retryAfterMs: number | undefined) {
    super({ ...init, retryAfterMs }, 'rate_limited');
  }
}

/** No answer within `timeoutMs`; the request was aborted. */
export class TimeoutError extends ClientError {
  override name = 'TimeoutError';
  constructor(message: string) {
    super('timeout', message);
  }
}

/** The request failed below HTTP. `sent` says whether it may have reached the service. */
export class NetworkError extends ClientError {
  override name = 'NetworkError';
  /** false when provably not sent (connection refused, DNS failure); 'unknown' otherwise. */
  readonly sent: false | 'unknown';
  constructor(message: string, sent: false | 'unknown', cause: unknown) {
    super('network_error', message, { cause });
    this.sent = sent;
  }
}

/** The caller's AbortSignal fired. */
export class AbortedError extends ClientError {
  override name = 'AbortedError';
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
  override name = 'RedirectError';
  /** The HTTP status of the redirect; 0 for an opaque redirect (browsers), or the final status when `followed`. */
  readonly status: number;
  /** Where the answer pointed (Location), or where the fetch went when `followed`. */
  readonly location: string | undefined;
  /** True when the injected fetch followed the redirect despite `redirect: 'manual'`: the request did reach `location`. */
  readonly followed: boolean;

  constructor(init: { status: number; location: string | undefined; followed: boolean; method: string; path: string }) {
    const to = init.location ? ` to ${init.location}` : '';
    super(
      'redirect',
      init.followed
        ? `The fetch given to createClient followed a redirect of ${init.method} ${init.path}${to} although the client asked for redirect: 'manual'; the answer was refused. Give the client a fetch that honours redirect: 'manual'.`
        : `${init.method} ${init.path} was answered with a redirect (HTTP ${init.status})${to}. The client never follows redirects, so that credentials and messages stay with baseUrl: if the service moved, set baseUrl to its new address.`,
    );
    this.status = init.status;
    this.location = init.location;
    this.followed = init.followed;
  }
}

/**
 * The answer was longer than `maxResponseBytes`; the client stopped reading and aborted the
 * transfer. Never retried.
 */
export class ResponseTooLargeError extends ClientError {
  override name = 'ResponseTooLargeError';
  /** HTTP status of the oversized answer. */
  readonly status: number;
  /** The cap that was exceeded, in bytes. */
  readonly limitBytes: number;

  constructor(init: { status: number; limitBytes: number; method?: string; path?: string }) {
    const what = init.method && init.path ? `The answer to ${init.method} ${init.path}` : 'The answer';
    super('response_too_large', `${what} (HTTP ${init.status}) is longer than ${init.limitBytes} bytes; the transfer was aborted. If such answers are expected, raise maxResponseBytes.`);
    this.status = init.status;
    this.limitBytes = init.limitBytes;
  }
}

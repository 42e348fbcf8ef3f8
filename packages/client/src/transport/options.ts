// The options of the client and of one request, and their defaults (one table).
import { REST_HOST } from '@x/service/hosts';
import type { Algorithm, Clock, MacProvider } from '@x/auth';
import type { ClientError } from '../errors.js';
import type { FetchFunction } from './fetch.js';
import type { Logger, LogLevel } from './log.js';

export const DEFAULT_BASE_URL = REST_HOST;

/** The most bytes of one answer the client reads by default (1 MiB); the service's answers are a few KB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 1_048_576;

/** Every default of the transport, in one place. */
export const DEFAULTS = {
  timeoutMs: 10_000,
  retries: 2,
  minDelayMs: 250,
  maxDelayMs: 5_000,
  maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES,
} as const;

export interface RetryOptions {
  /** Retries after the first attempt. Default 2. */
  retries?: number | undefined;
  /** Base of the exponential backoff (full jitter). Default 250 ms. */
  minDelayMs?: number | undefined;
  /**
   * Longest wait before a retry. Default 5 000 ms. A Retry-After longer than this is not waited
   * for: the error is thrown at once, its `retryAfterMs` says when to try again.
   */
  maxDelayMs?: number | undefined;
}

export interface Hooks {
  /** Before each attempt. Authorization is redacted. */
  onRequest?: ((event: { method: string; url: string; attempt: number; headers: Record<string, string> }) => void) | undefined;
  /** After each answer, error statuses included. */
  onResponse?: ((event: { method: string; url: string; attempt: number; status: number; durationMs: number; headers: Headers }) => void) | undefined;
  /** Before waiting for a retry. */
  onRetry?: ((event: { method: string; url: string; attempt: number; delayMs: number; error: ClientError }) => void) | undefined;
}

export interface ClientOptions {
  customerId: string;
  /** The API key, base64 as issued. */
  apiKey: string;
  /**
   * Default `https://rest-api.telesign.com` (self-service); full-service accounts use
   * `https://rest-ww.telesign.com`. An http(s) URL without credentials, query or fragment; a path
   * (`https://proxy.example/telesign/`) is a prefix that every request stays under.
   */
  baseUrl?: string | URL | undefined;
  /** `digest` (default) signs every request; `basic` sends the key in every request. */
  auth?: 'digest' | 'basic' | undefined;
  algorithm?: Algorithm | undefined;
  /** Default `x-ts-date`; `date` for proxies that require the Date header. */
  dateHeader?: 'x-ts-date' | 'date' | undefined;
  /**
   * Default: on Node, the client's own `node:http(s)` keep-alive transport (no fetch); elsewhere
   * `globalThis.fetch`. When given, every request goes through it. Inject a proxy-aware fetch (`createNodeFetch`, undici's `fetch`),
   * a test double or the emulator's handler: any function of `(url: string, init)` that resolves
   * to a Response fits (see `FetchFunction`). It is called with `redirect: 'manual'` and must
   * honour it: a redirect is never followed.
   */
  fetch?: FetchFunction | undefined;
  /** Per attempt, headers and body included. Default 10 000 ms; 0 disables. */
  timeoutMs?: number | undefined;
  /** Default `{ retries: 2 }`; false disables retries. */
  retry?: RetryOptions | false | undefined;
  /**
   * The most bytes of one answer the client reads. Default 1 MiB (1 048 576). A longer answer is
   * a `ResponseTooLargeError` and its transfer is aborted.
   */
  maxResponseBytes?: number | undefined;
  /** Replaces the User-Agent; false sends none. */
  userAgent?: string | false | undefined;
  hooks?: Hooks | undefined;
  /**
   * What is logged: `off` (default), `error`, `warn`, `info`, `debug`. `X_LOG_LEVEL` sets it
   * when not given; a `logger` without a level logs at `info`. Never a key, an Authorization
   * header, a signature or a verification code; at info and above no body, no query, and phone
   * numbers masked (see the README's *Logging*).
   */
  logLevel?: LogLevel | undefined;
  /** Where lines go: anything with error/warn/info/debug (pino, console), called as `info(fields, message)`. Default: the console, as text. */
  logger?: Logger | undefined;
  /**
   * Clock for the signed date: a Date or epoch milliseconds, as every `now` option of the SDK
   * (one test clock fits the client, a verifier and a replay store). Default `Date.now`.
   */
  now?: Clock | undefined;
  /** The HMAC implementation. Default: @x/auth's, chosen by export condition (node:crypto on Node, @noble/hashes elsewhere). */
  mac?: MacProvider | undefined;
}

export interface RequestOptions {
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
  retry?: RetryOptions | false | undefined;
  /** Overrides the client's `maxResponseBytes` for this request. */
  maxResponseBytes?: number | undefined;
}

/** The options of a send that must not happen twice (an SMS, a call, a verification): a request's, plus its idempotency key. */
export interface SendOptions extends RequestOptions {
  /**
   * Sends at most once per key, across calls and processes: a later call with the same key gets
   * the stored answer without a request (needs the client's `idempotency` option, from
   * `@x/client/idempotency`). Scoped to the account and the operation: the id of the job or order
   * the message is for is a good key. Not a secret.
   */
  idempotencyKey?: string | undefined;
}

export interface RawRequest extends RequestOptions {
  method: string;
  /**
   * Path under the base URL, e.g. `/v1/messaging`: starts with one "/", ASCII letters, digits,
   * `-._~!$&'()*+,;=:@` and %XX escapes only; no `//`, no `.` or `..` segment (escaped or not), no
   * escaped `/` or `\`. The query goes in `query`. Anything else is a `ValidationError`.
   */
  path: string;
  query?: Record<string, string | undefined> | undefined;
  form?: Record<string, string | undefined> | undefined;
  json?: unknown;
  /**
   * Whether sending twice is harmless. Default: true for GET and HEAD, false otherwise.
   * Non-idempotent requests are retried only on 429 or when they provably never left
   * (refused, DNS failure).
   */
  idempotent?: boolean | undefined;
}

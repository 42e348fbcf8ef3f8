import { AuthError, basicAuthorization, CONTENT_TYPE, createSigner, type Algorithm, type MacProvider, type Signer } from '@x/auth';
import {
  AbortedError,
  ApiError,
  AuthenticationError,
  ConfigurationError,
  NetworkError,
  RateLimitError,
  TimeoutError,
  ValidationError,
  type ClientError,
} from './errors.js';
import type { ApiResponse } from './types.js';

declare const __VERSION__: string;

export const DEFAULT_BASE_URL = 'https://rest-api.telesign.com';

export interface RetryOptions {
  /** Retries after the first attempt. Default 2. */
  retries?: number;
  /** Base of the exponential backoff (full jitter). Default 250 ms. */
  minDelayMs?: number;
  /** Cap of one wait, Retry-After included. Default 5 000 ms. */
  maxDelayMs?: number;
}

export interface Hooks {
  /** Before each attempt. Authorization is redacted. */
  onRequest?(event: { method: string; url: string; attempt: number; headers: Record<string, string> }): void;
  /** After each answer, error statuses included. */
  onResponse?(event: { method: string; url: string; attempt: number; status: number; durationMs: number; headers: Headers }): void;
  /** Before waiting for a retry. */
  onRetry?(event: { method: string; url: string; attempt: number; delayMs: number; error: ClientError }): void;
}

export interface ClientOptions {
  customerId: string;
  /** The API key, base64 as issued. */
  apiKey: string;
  /** Default `https://rest-api.telesign.com` (self-service); full-service accounts use `https://rest-ww.telesign.com`. */
  baseUrl?: string | URL;
  /** `digest` (default) signs every request; `basic` sends the key in every request. */
  auth?: 'digest' | 'basic';
  algorithm?: Algorithm;
  /** Default `x-ts-date`; `date` for proxies that require the Date header. */
  dateHeader?: 'x-ts-date' | 'date';
  /** Default `globalThis.fetch`. Inject a proxy-aware fetch, a test double or the emulator's handler. */
  fetch?: typeof fetch;
  /** Per attempt, headers and body included. Default 10 000 ms; 0 disables. */
  timeoutMs?: number;
  /** Default `{ retries: 2 }`; false disables retries. */
  retry?: RetryOptions | false;
  /** Replaces the User-Agent; false sends none. */
  userAgent?: string | false;
  hooks?: Hooks;
  /** Clock for the signed date. Default `() => new Date()`. */
  now?: () => Date;
  /** The HMAC implementation. Default: pure. On Node, `nodeMac` from `@x/auth/node` signs faster. */
  mac?: MacProvider;
}

export interface RequestOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  retry?: RetryOptions | false;
}

export interface RawRequest extends RequestOptions {
  method: string;
  /** Path under the base URL, e.g. `/v1/messaging`. */
  path: string;
  query?: Record<string, string | undefined>;
  form?: Record<string, string | undefined>;
  json?: unknown;
  /**
   * Whether sending twice is harmless. Default: true for GET, false otherwise. Non-idempotent
   * requests are retried only on 429 or when they provably never left (refused, DNS failure).
   */
  idempotent?: boolean;
}

// Errors that prove the request never reached the server.
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);
const RETRY_STATUS = new Set([500, 502, 503, 504]);

function causeCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

function runtimeName(): string | undefined {
  const g = globalThis as {
    Deno?: { version?: { deno?: string } };
    Bun?: { version?: string };
    process?: { versions?: { node?: string } };
    document?: unknown;
    navigator?: { userAgent?: string };
  };
  if (g.Deno?.version?.deno) return `Deno/${g.Deno.version.deno}`;
  if (g.Bun?.version) return `Bun/${g.Bun.version}`;
  if (g.process?.versions?.node) return `Node/${g.process.versions.node}`;
  if (typeof g.document !== 'undefined') return undefined; // browsers: the browser names itself
  return g.navigator?.userAgent ?? 'unknown-runtime';
}

function retryAfterMs(headers: Headers, now: number): number | undefined {
  const value = headers.get('retry-after');
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

const redact = (headers: Record<string, string>) =>
  headers.authorization ? { ...headers, authorization: headers.authorization.replace(/^(TSA [^:]+:|Basic ).*$/, '$1[redacted]') } : headers;

function call<E>(hook: ((event: E) => void) | undefined, event: E) {
  try {
    hook?.(event);
  } catch {
    // A failing logger must not fail the request.
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortedError(signal.reason));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortedError(signal!.reason));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Signs, sends, times out, retries and maps answers to results or typed errors. */
export class Transport {
  private readonly signer: Signer | undefined;
  private readonly basic: string | undefined;
  private readonly fetch: typeof fetch;
  private readonly base: URL;
  private readonly userAgent: string | undefined;

  constructor(private readonly options: ClientOptions) {
    if (!options || typeof options !== 'object') throw new ConfigurationError('createClient needs options: { customerId, apiKey }.');
    try {
      if (options.auth === 'basic') this.basic = basicAuthorization(options);
      else if (options.auth === undefined || options.auth === 'digest') this.signer = createSigner(options, { algorithm: options.algorithm, dateHeader: options.dateHeader, mac: options.mac });
      else throw new ConfigurationError(`auth must be 'digest' or 'basic', got ${JSON.stringify(options.auth)}.`);
    } catch (error) {
      if (error instanceof AuthError) throw new ConfigurationError(error.message, { cause: error });
      throw error;
    }
    const fetcher = options.fetch ?? globalThis.fetch;
    if (typeof fetcher !== 'function') {
      throw new ConfigurationError('No fetch is available in this runtime: pass one as createClient({ fetch }) (e.g. from undici).');
    }
    this.fetch = options.fetch ? options.fetch : (input, init) => globalThis.fetch(input, init);
    try {
      this.base = new URL(String(options.baseUrl ?? DEFAULT_BASE_URL));
    } catch (cause) {
      throw new ConfigurationError('baseUrl must be an absolute URL, e.g. "https://rest-api.telesign.com".', { cause });
    }
    const runtime = runtimeName();
    this.userAgent = options.userAgent === false ? undefined : (options.userAgent ?? (runtime ? `x-sdk-client/${__VERSION__} ${runtime}` : undefined));
  }

  async send<T>(request: RawRequest): Promise<ApiResponse<T>> {
    if (typeof request.method !== 'string' || !/^[A-Za-z]+$/.test(request.method)) throw new ValidationError('method', 'must be an HTTP method such as GET or POST.');
    if (typeof request.path !== 'string' || !request.path.startsWith('/')) throw new ValidationError('path', 'must start with "/", e.g. "/v1/messaging".');
    const method = request.method.toUpperCase();
    const url = new URL(this.base.pathname.replace(/\/$/, '') + request.path, this.base);
    for (const [key, value] of Object.entries(request.query ?? {})) if (value !== undefined) url.searchParams.append(key, value);
    let body: string | undefined;
    let contentType: string | undefined;
    if (request.form) {
      const form = new URLSearchParams();
      for (const [key, value] of Object.entries(request.form)) if (value !== undefined) form.append(key, value);
      body = form.toString();
      contentType = CONTENT_TYPE.form;
    } else if (request.json !== undefined) {
      body = JSON.stringify(request.json);
      contentType = CONTENT_TYPE.json;
    }
    const idempotent = request.idempotent ?? (method === 'GET' || method === 'HEAD');
    const retry = (request.retry ?? this.options.retry) === false ? { retries: 0 } : { ...this.options.retry, ...request.retry };
    const attempts = 1 + Math.max(0, retry.retries ?? 2);
    const timeoutMs = request.timeoutMs ?? this.options.timeoutMs ?? 10_000;
    const signal = request.signal;
    const href = url.href;

    const exchange = { method, url, href, contentType, body, idempotent, timeoutMs, signal };
    for (let attempt = 1; ; attempt++) {
      if (signal?.aborted) throw new AbortedError(signal.reason);
      const outcome = await this.attempt<T>(exchange, attempt);
      if ('result' in outcome) return outcome.result;
      if (!outcome.retryable || attempt >= attempts) throw outcome.error;
      const backoff = Math.random() * Math.min(retry.maxDelayMs ?? 5_000, (retry.minDelayMs ?? 250) * 2 ** (attempt - 1));
      const hinted = outcome.error instanceof RateLimitError ? (outcome.error.retryAfterMs ?? 0) : 0;
      const delayMs = Math.round(Math.min(retry.maxDelayMs ?? 5_000, Math.max(backoff, hinted)));
      call(this.options.hooks?.onRetry, { method, url: href, attempt, delayMs, error: outcome.error });
      await sleep(delayMs, signal);
    }
  }

  /** One signed attempt: a result, or an error and whether another attempt is safe. */
  private async attempt<T>(
    x: { method: string; url: URL; href: string; contentType?: string; body?: string; idempotent: boolean; timeoutMs: number; signal?: AbortSignal },
    attempt: number,
  ): Promise<{ result: ApiResponse<T> } | { error: ClientError; retryable: boolean }> {
    const { method, url, href, signal } = x;
    const { headers, stringToSign } = this.headers(method, url, x.contentType, x.body);
    const onRequest = this.options.hooks?.onRequest;
    if (onRequest) call(onRequest, { method, url: href, attempt, headers: redact(headers) });

    // One controller per attempt: the timeout and the caller's signal both abort it; both are
    // removed when the attempt ends, so no timer or listener outlives it.
    const controller = new AbortController();
    let timedOut = false;
    const timer = x.timeoutMs > 0 ? setTimeout(() => { timedOut = true; controller.abort(); }, x.timeoutMs) : undefined;
    const onAbort = () => controller.abort(signal!.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    const started = Date.now();
    let response: Response;
    let text: string;
    try {
      response = await this.fetch(href, { method, headers, body: x.body, signal: controller.signal });
      text = await response.text();
    } catch (error) {
      if (signal?.aborted) return { error: new AbortedError(signal.reason), retryable: false };
      if (timedOut) return { error: new TimeoutError(`${method} ${url.pathname} got no answer within ${x.timeoutMs} ms; the request was aborted.`), retryable: x.idempotent };
      const code = causeCode(error);
      const sent = code && NOT_SENT.has(code) ? false : 'unknown';
      const message = `${method} ${url.pathname} failed before an answer${code ? ` (${code})` : ''}: ${error instanceof Error ? error.message : String(error)}`;
      return { error: new NetworkError(message, sent, error), retryable: x.idempotent || sent === false };
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
    call(this.options.hooks?.onResponse, { method, url: href, attempt, status: response.status, durationMs: Date.now() - started, headers: response.headers });

    let data: unknown;
    let json = false;
    try {
      data = text === '' ? undefined : JSON.parse(text);
      json = data !== undefined;
    } catch {
      data = text.slice(0, 2_000);
    }
    const init = { status: response.status, headers: response.headers, body: data, method, path: url.pathname };
    if (response.ok) {
      if (json) return { result: { data: data as T, status: response.status, headers: response.headers } };
      return { error: new ApiError(init, 'invalid_response', `${method} ${url.pathname} answered HTTP ${response.status} without a JSON body.`), retryable: false };
    }
    if (response.status === 401) return { error: new AuthenticationError(init, stringToSign, this.options.now?.().getTime() ?? Date.now()), retryable: false };
    // 429: the service did not process the request, so even a POST may go again.
    if (response.status === 429) return { error: new RateLimitError(init, retryAfterMs(response.headers, Date.now())), retryable: true };
    return { error: new ApiError(init), retryable: x.idempotent && RETRY_STATUS.has(response.status) };
  }

  private headers(method: string, url: URL, contentType: string | undefined, body: string | undefined) {
    let headers: Record<string, string>;
    let stringToSign: string | undefined;
    if (this.signer) {
      ({ headers, stringToSign } = this.signer.sign(
        { method, url, ...(contentType ? { contentType } : {}), ...(body !== undefined ? { body } : {}) },
        this.options.now ? { date: this.options.now() } : {},
      ));
    } else {
      headers = { authorization: this.basic! };
      if (contentType) headers['content-type'] = contentType;
    }
    headers.accept = 'application/json';
    if (this.userAgent) headers['user-agent'] = this.userAgent;
    return { headers, stringToSign };
  }
}

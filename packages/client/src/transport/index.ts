// The transport, in the order a request goes through it:
//   buildRequest (request.ts)        check and resolve everything; nothing signed yet
//   sign (credentials.ts)            fresh signature per attempt
//   sender (sender.ts)               one attempt: timeout, no redirects, capped body; the
//                                    injected fetch (exchange.ts), else the runtime's default
//                                    (#platform: node:http on Node, the global fetch elsewhere)
//   classify (classify.ts)           result or typed error
//   shouldRetry / retryDelay (retry.ts), sleep (signals.ts)
import { AbortedError, ConfigurationError, type ClientError } from '../errors.js';
import type { ApiResponse } from '../types.js';
import { classify } from './classify.js';
import { createCredentials, timeOf, type Credentials } from './credentials.js';
import { redact } from '../secrets.js';
import { platform } from '#platform';
import { fetchSender } from './exchange.js';
import type { Events, Observer } from './events.js';
import { createLog, logOptionsProblem } from './log.js';
import { DEFAULT_BASE_URL, type ClientOptions, type Hooks, type RawRequest } from './options.js';
import { buildRequest, checkClientOptions, type Prepared } from './request.js';
import { retryDelay, shouldRetry } from './retry.js';
import { SENDER, type Sender } from './sender.js';
import type { FetchFunction } from './fetch.js';
import { sleep } from './signals.js';
import { parseBaseUrl, type Base } from './url.js';

export { DEFAULT_BASE_URL, DEFAULT_MAX_RESPONSE_BYTES } from './options.js';
export type { ClientOptions, Hooks, RawRequest, RequestOptions, RetryOptions, SendOptions } from './options.js';
export type { FetchFunction, FetchInit, FetchResponse, FetchBody } from './fetch.js';
export { LOG_LEVELS } from './log.js';
export type { Logger, LogFields, LogLevel } from './log.js';

/** The caller's hooks as an observer: URLs as text, Authorization redacted. */
function hookObserver({ onRequest, onResponse, onRetry }: Hooks): Observer {
  return {
    request: onRequest && ((e) => onRequest({ method: e.method, url: e.url.href, attempt: e.attempt, headers: redact(e.headers) })),
    response: onResponse && ((e) => onResponse({ method: e.method, url: e.url.href, attempt: e.attempt, status: e.status, durationMs: e.durationMs, headers: e.headers() })),
    retry: onRetry && ((e) => onRetry({ method: e.method, url: e.url.href, attempt: e.attempt, delayMs: e.delayMs, error: e.error })),
  };
}

/** Signs, sends, times out, retries and maps answers to results or typed errors. */
export class Transport {
  private declare readonly credentials: Credentials;
  /** How attempts go on the wire; shared by the Transports of one client (one connection pool). */
  declare readonly sender: Sender;
  private declare readonly base: Base;
  /** The hooks and the log, each told of every event it listens for. */
  private declare readonly observers: Observer[];
  /** The clock the requests are signed with, for the clock offset of AuthenticationError. */
  private readonly localTime = () => timeOf(this.options.now);

  constructor(private readonly options: ClientOptions, sender?: Sender) {
    if (!options || typeof options !== 'object') throw new ConfigurationError('createClient needs options: { customerId, apiKey }.');
    // The runtime's HMAC (native on Node) unless one is given.
    this.credentials = createCredentials(options);
    this.sender = sender ?? defaultSender(options.fetch);
    this.base = parseBaseUrl(options.baseUrl ?? DEFAULT_BASE_URL);
    checkClientOptions(options);
    const problem = logOptionsProblem(options.logLevel, options.logger);
    if (problem) throw new ConfigurationError(problem);
    const log = createLog(options.logLevel ?? (options.logger ? 'info' : 'off'), options.logger);
    this.observers = [hookObserver(options.hooks ?? {}), ...(log ? [log] : [])];
  }

  /** Makes the event once, for the observers that listen for it; a failing observer must not fail the request. */
  private emit<K extends keyof Events>(name: K, event: () => Events[K]): void {
    let made: Events[K] | undefined;
    for (const observer of this.observers) {
      const listener = observer[name];
      if (!listener) continue;
      try {
        listener((made ??= event()));
      } catch {
        // ignored
      }
    }
  }

  async send<T>(raw: RawRequest): Promise<ApiResponse<T>> {
    const request = buildRequest(raw, this.base, this.options);
    const started = Date.now();
    const fail = (error: ClientError, attempts: number): ClientError => {
      this.emit('failure', () => ({ method: request.method, url: request.url, attempts, durationMs: Date.now() - started, error }));
      return error;
    };
    for (let attempt = 1; ; attempt++) {
      if (request.signal?.aborted) throw fail(new AbortedError(request.signal.reason), attempt - 1);
      const outcome = await this.attempt<T>(request, attempt);
      if ('result' in outcome) return outcome.result;
      const delayMs = this.nextDelay(request, attempt, outcome.error);
      if (delayMs === undefined) throw fail(outcome.error, attempt);
      this.emit('retry', () => ({ method: request.method, url: request.url, attempt, delayMs, error: outcome.error }));
      try {
        await sleep(delayMs, request.signal);
      } catch (error) {
        throw error instanceof AbortedError ? fail(error, attempt) : error;
      }
    }
  }

  /** The wait before another attempt, or undefined when there is none. */
  private nextDelay(request: Prepared, attempt: number, error: ClientError): number | undefined {
    if (attempt >= request.retry.attempts || !shouldRetry(error, request.idempotent)) return undefined;
    return retryDelay(attempt, request.retry, error);
  }

  /** One signed attempt: a result or a typed error. */
  private async attempt<T>(request: Prepared, attempt: number): Promise<{ result: ApiResponse<T> } | { error: ClientError }> {
    const { method, url, timeoutMs, maxResponseBytes } = request;
    const { headers, stringToSign, scheme } = this.credentials.sign(request);
    this.emit('request', () => ({ method, url, attempt, headers, stringToSign }));
    const started = Date.now();
    let exchange;
    try {
      exchange = await this.sender({ method, url, headers, body: request.body, timeoutMs, maxResponseBytes, signal: request.signal });
    } catch (error) {
      // The sender could not make the request as configured (nothing was sent): no retry helps.
      if (error instanceof ConfigurationError) return { error };
      throw error;
    }
    const durationMs = Date.now() - started;
    const outcome = classify<T>(exchange, { method, url, timeoutMs, maxResponseBytes, stringToSign, scheme, localTime: this.localTime, idempotent: request.idempotent });
    if ('answer' in exchange && exchange.answer) {
      const answered = exchange.answer;
      this.emit('response', () => ({ method, url, attempt, status: answered.status, durationMs, headers: () => answered.headers(), outcome }));
    }
    return outcome;
  }
}

/**
 * The sender of a client: the injected fetch (the sender itself when the fetch is a view of one,
 * as `createNodeFetch` is), else the runtime's default (node:http on Node), else the global fetch,
 * looked up per call so that a runtime's later replacement is used.
 */
function defaultSender(injected: FetchFunction | undefined): Sender {
  const own = (injected as { [SENDER]?: unknown } | undefined)?.[SENDER];
  if (typeof own === 'function') return own as Sender;
  if (injected === undefined && platform.createSender) return platform.createSender();
  if (typeof (injected ?? globalThis.fetch) !== 'function') {
    throw new ConfigurationError('No fetch in this runtime: pass one, createClient({ fetch }).');
  }
  return fetchSender(injected ?? ((input, init) => globalThis.fetch(input, init)));
}

// The transport, in the order a request goes through it:
//   buildRequest (request.ts)        check and resolve everything; nothing signed yet
//   sign (credentials.ts)            fresh signature per attempt
//   fetchWithTimeout (exchange.ts)   one attempt: timeout, no redirects, capped body
//   classify (classify.ts)           result or typed error
//   shouldRetry / retryDelay (retry.ts), sleep (signals.ts)
import { AbortedError, ConfigurationError, type ClientError } from '../errors.js';
import type { ApiResponse } from '../types.js';
import { classify } from './classify.js';
import { createCredentials, redact, type Credentials } from './credentials.js';
import { fetchWithTimeout } from './exchange.js';
import { DEFAULT_BASE_URL, type ClientOptions, type Hooks, type RawRequest } from './options.js';
import { buildRequest, checkClientOptions, type Prepared } from './request.js';
import { retryDelay, shouldRetry } from './retry.js';
import { sleep } from './signals.js';
import { parseBaseUrl, type Base } from './url.js';

export { DEFAULT_BASE_URL, DEFAULT_MAX_RESPONSE_BYTES } from './options.js';
export type { ClientOptions, Hooks, RawRequest, RequestOptions, RetryOptions } from './options.js';

/** Calls a hook; a failing logger must not fail the request. */
function notify<E>(hook: ((event: E) => void) | undefined, event: () => E): void {
  if (!hook) return;
  try {
    hook(event());
  } catch {
    // ignored
  }
}

/** Signs, sends, times out, retries and maps answers to results or typed errors. */
export class Transport {
  private readonly credentials: Credentials;
  private readonly fetch: typeof fetch;
  private readonly base: Base;
  private readonly hooks: Hooks;

  constructor(private readonly options: ClientOptions) {
    if (!options || typeof options !== 'object') throw new ConfigurationError('createClient needs options: { customerId, apiKey }.');
    this.credentials = createCredentials(options);
    const injected = options.fetch;
    if (typeof (injected ?? globalThis.fetch) !== 'function') {
      throw new ConfigurationError('No fetch is available in this runtime: pass one as createClient({ fetch }) (e.g. from undici).');
    }
    // The global fetch is looked up per call, so that a runtime's later replacement is used.
    this.fetch = injected ?? ((input, init) => globalThis.fetch(input, init));
    this.base = parseBaseUrl(options.baseUrl ?? DEFAULT_BASE_URL);
    checkClientOptions(options);
    this.hooks = options.hooks ?? {};
  }

  async send<T>(raw: RawRequest): Promise<ApiResponse<T>> {
    const request = buildRequest(raw, this.base, this.options);
    for (let attempt = 1; ; attempt++) {
      if (request.signal?.aborted) throw new AbortedError(request.signal.reason);
      const outcome = await this.attempt<T>(request, attempt);
      if ('result' in outcome) return outcome.result;
      const delayMs = this.nextDelay(request, attempt, outcome.error);
      if (delayMs === undefined) throw outcome.error;
      notify(this.hooks.onRetry, () => ({ method: request.method, url: request.url.href, attempt, delayMs, error: outcome.error }));
      await sleep(delayMs, request.signal);
    }
  }

  /** The wait before another attempt, or undefined when there is none. */
  private nextDelay(request: Prepared, attempt: number, error: ClientError): number | undefined {
    if (attempt >= request.retry.attempts || !shouldRetry(error, request.idempotent)) return undefined;
    return retryDelay(attempt, request.retry, error);
  }

  /** One signed attempt: a result or a typed error. */
  private async attempt<T>(request: Prepared, attempt: number): Promise<{ result: ApiResponse<T> } | { error: ClientError }> {
    const { method, url } = request;
    const { headers, stringToSign } = this.credentials.sign(request);
    notify(this.hooks.onRequest, () => ({ method, url: url.href, attempt, headers: redact(headers) }));
    const started = Date.now();
    const exchange = await fetchWithTimeout(this.fetch, { ...request, headers });
    if ('response' in exchange && exchange.response) {
      const { status, headers: answered } = exchange.response;
      notify(this.hooks.onResponse, () => ({ method, url: url.href, attempt, status, durationMs: Date.now() - started, headers: answered }));
    }
    return classify<T>(exchange, { ...request, stringToSign, localTime: () => this.options.now?.().getTime() ?? Date.now() });
  }
}

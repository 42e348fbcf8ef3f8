// What an exchange means: a result, or the typed error that says what happened.
import {
  AbortedError,
  ApiError,
  AuthenticationError,
  NetworkError,
  RateLimitError,
  RedirectError,
  ResponseTooLargeError,
  TimeoutError,
  type ClientError,
} from '../errors.js';
import type { ApiResponse } from '../types.js';
import type { Exchange } from './exchange.js';
import { retryAfterMs } from './retry.js';

export interface Context {
  method: string;
  url: URL;
  timeoutMs: number;
  maxResponseBytes: number;
  /** What was signed, for AuthenticationError. */
  stringToSign: string | undefined;
  /** The clock the request was signed with, for the clock offset of AuthenticationError. */
  localTime: () => number;
}

// Errors that prove the request never reached the server. ERR_PROXY_TUNNEL: createNodeFetch's
// proxy refused the CONNECT tunnel, so not a byte of the request was written.
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT', 'ERR_PROXY_TUNNEL']);

/** The first `code` along an error's cause chain (ECONNREFUSED, ENOTFOUND, ...). */
export function causeCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

function parse(text: string): { data: unknown; json: boolean } {
  if (text === '') return { data: undefined, json: false };
  try {
    return { data: JSON.parse(text), json: true };
  } catch {
    return { data: text.slice(0, 2_000), json: false };
  }
}

function answer<T>(response: Response, text: string, x: Context): { result: ApiResponse<T> } | { error: ClientError } {
  const { method } = x;
  const path = x.url.pathname;
  const { status, headers } = response;
  const { data, json } = parse(text);
  if (response.ok) {
    if (json) return { result: { data: data as T, status, headers } };
    return { error: new ApiError({ status, headers, body: data, method, path }, 'invalid_response', `${method} ${path} answered HTTP ${status} without a JSON body.`) };
  }
  const init = { status, headers, body: data, method, path, retryAfterMs: status === 429 || status === 503 ? retryAfterMs(headers, Date.now()) : undefined };
  if (status === 401) return { error: new AuthenticationError(init, x.stringToSign, x.localTime()) };
  if (status === 429) return { error: new RateLimitError(init, init.retryAfterMs) };
  return { error: new ApiError(init) };
}

export function classify<T>(exchange: Exchange, x: Context): { result: ApiResponse<T> } | { error: ClientError } {
  const { method } = x;
  const path = x.url.pathname;
  switch (exchange.kind) {
    case 'answer':
      return answer<T>(exchange.response, exchange.text, x);
    case 'redirect':
      return { error: new RedirectError({ ...exchange.redirect, method, path }) };
    case 'too_large':
      return { error: new ResponseTooLargeError({ status: exchange.status, limitBytes: x.maxResponseBytes, method, path }) };
    case 'timeout':
      return { error: new TimeoutError(`${method} ${path} got no answer within ${x.timeoutMs} ms; the request was aborted.`) };
    case 'aborted':
      return { error: new AbortedError(exchange.reason) };
    case 'failed': {
      const { error } = exchange;
      const code = causeCode(error);
      const sent = code && NOT_SENT.has(code) ? false : 'unknown';
      const message = `${method} ${path} failed before an answer${code ? ` (${code})` : ''}: ${error instanceof Error ? error.message : String(error)}`;
      return { error: new NetworkError(message, sent, error) };
    }
  }
}

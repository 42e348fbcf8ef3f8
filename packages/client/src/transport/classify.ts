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
import type { Answer, Exchange } from './sender.js';
import { retryAfterMs } from './retry.js';
import { bareHost } from './url.js';

export interface Context {
  method: string;
  url: URL;
  timeoutMs: number;
  maxResponseBytes: number;
  /** What was signed, for AuthenticationError. */
  stringToSign: string | undefined;
  /** How the request authenticated, for AuthenticationError. */
  scheme: 'digest' | 'basic';
  /** The clock the request was signed with, for the clock offset of AuthenticationError. */
  localTime: () => number;
  /** Whether sending the request twice is harmless, for the advice of an unanswered request. */
  idempotent: boolean;
}

/**
 * What an attempt that got no answer (NetworkError, TimeoutError) means for the caller. A request
 * that may have reached the service and is not idempotent (an SMS, a call, a verification) is not
 * retried, since it may have gone out: the message says how to find out.
 */
function unanswered(sent: false | 'unknown', idempotent: boolean): string {
  if (sent === false) return ' Nothing reached the service.';
  if (idempotent) return '';
  return ' The request may have reached the service (an SMS or a call may have gone out), so it is not retried: sending it again could send it twice. Look its status up by reference id if you have one, or wait for its status callback (callbackUrl), before sending again.';
}

// Errors that prove the request never reached the server. ERR_PROXY_TUNNEL: createNodeFetch's
// proxy refused the CONNECT tunnel, so not a byte of the request was written.
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT', 'ERR_PROXY_TUNNEL']);

/** What to do about a connection that failed, by its code (the message names the code and the cause). */
const NETWORK_ADVICE: ReadonlyMap<string, string> = new Map(Object.entries({
  ECONNREFUSED: 'Nothing accepts connections there: check baseUrl (and the proxy, when one is used).',
  ENOTFOUND: 'The host name does not resolve: check baseUrl and DNS.',
  EAI_AGAIN: 'The host name could not be resolved now (DNS): check the network, then retry.',
  ENETUNREACH: 'The network is unreachable from this machine: check its connection.',
  EHOSTUNREACH: 'The host is unreachable from this machine: check the network and firewalls.',
  ECONNRESET: 'The connection was reset: a proxy, a firewall or the server closed it.',
  ETIMEDOUT: 'The connection timed out: check the network and firewalls.',
  UND_ERR_CONNECT_TIMEOUT: 'No connection within the connect timeout: check the network and firewalls.',
  ERR_PROXY_TUNNEL: 'The proxy refused the tunnel: check the proxy and its rules.',
}));

interface Target {
  host: string;
  port: number;
}

/** The host and port of a URL, the scheme's default port when it names none. */
const urlTarget = (url: URL): Target => ({ host: bareHost(url.hostname), port: url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80 });

/** An error and its causes, at most 4 links (a cause chain can be long, or a cycle). */
function chain(error: unknown): Record<string, unknown>[] {
  const links: Record<string, unknown>[] = [];
  for (let e = error; e && links.length < 4; e = (e as { cause?: unknown }).cause) links.push(e as Record<string, unknown>);
  return links;
}

/** Where the connection was tried: the address a system error names (a proxy's, when one was used), else the URL's. */
function targetOf(error: unknown, url: URL): Target {
  for (const { address, port } of chain(error)) if (typeof address === 'string' && typeof port === 'number') return { host: address, port };
  return urlTarget(url);
}

/** The innermost message along a cause chain ("connect ECONNREFUSED 127.0.0.1:1234" under "fetch failed"). */
function innermostMessage(error: unknown): string {
  let message = error instanceof Error ? error.message : String(error);
  for (const e of chain((error as { cause?: unknown } | undefined)?.cause)) {
    if (e instanceof Error && e.message && !message.includes(e.message)) message = `${message}: ${e.message}`;
  }
  return message;
}

const hostPort = ({ host, port }: Target) => `${host.includes(':') ? `[${host}]` : host}:${port}`;

/** The first `code` along an error's cause chain (ECONNREFUSED, ENOTFOUND, ...). */
export function causeCode(error: unknown): string | undefined {
  return chain(error).map((e) => e.code).find((code): code is string => typeof code === 'string');
}

function parse(text: string): { data: unknown; json: boolean } {
  if (text === '') return { data: undefined, json: false };
  try {
    return { data: JSON.parse(text), json: true };
  } catch {
    return { data: text.slice(0, 2_000), json: false };
  }
}

function answer<T>(a: Answer, text: string, x: Context): { result: ApiResponse<T> } | { error: ClientError } {
  const { method } = x;
  const path = x.url.pathname;
  const { status } = a;
  const { data, json } = parse(text);
  if (status >= 200 && status < 300) {
    // The headers are built when read: on Node they are not a Headers object until then.
    if (json) return { result: { data: data as T, status, get headers() { return a.headers(); } } };
    return { error: new ApiError({ status, headers: a.headers(), body: data, method, path }, 'invalid_response', `${method} ${path} answered HTTP ${status} without a JSON body.`) };
  }
  const init = { status, headers: a.headers(), body: data, method, path, retryAfterMs: status === 429 || status === 503 ? retryAfterMs(a, Date.now()) : undefined };
  if (status === 401) return { error: new AuthenticationError(init, x.stringToSign, x.localTime(), x.scheme) };
  if (status === 429) return { error: new RateLimitError(init, init.retryAfterMs) };
  return { error: new ApiError(init) };
}

export function classify<T>(exchange: Exchange, x: Context): { result: ApiResponse<T> } | { error: ClientError } {
  const { method } = x;
  const path = x.url.pathname;
  switch (exchange.kind) {
    case 'answer':
      return answer<T>(exchange.answer, exchange.text, x);
    case 'redirect':
      return { error: new RedirectError({ ...exchange.redirect, method, path }) };
    case 'too_large':
      return { error: new ResponseTooLargeError({ status: exchange.status, limitBytes: x.maxResponseBytes, method, path }) };
    case 'timeout': {
      const sent = exchange.sent ?? 'unknown';
      return { error: new TimeoutError(`${method} ${path} got no answer within ${x.timeoutMs} ms; the request was aborted.${unanswered(sent, x.idempotent)}`, sent) };
    }
    case 'aborted':
      return { error: new AbortedError(exchange.reason) };
    case 'failed': {
      const { error } = exchange;
      const code = causeCode(error);
      const sent = code && NOT_SENT.has(code) ? false : 'unknown';
      const target = targetOf(error, x.url);
      const named = hostPort(urlTarget(x.url));
      const tried = hostPort(target);
      const where = tried === named ? named : `${named} (connecting to ${tried})`;
      const advice = code ? NETWORK_ADVICE.get(code) : undefined;
      const message = `${method} ${path} to ${where} failed before an answer${code ? ` (${code})` : ''}: ${innermostMessage(error).replace(/\.$/, '')}.${advice ? ` ${advice}` : ''}${unanswered(sent, x.idempotent)}`;
      return { error: new NetworkError(message, sent, error, target) };
    }
  }
}

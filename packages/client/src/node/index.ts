/**
 * Node-only entry of `@x/client`: `createNodeFetch`, the client's own Node transport with options
 * (a proxy, TLS, the pool size), in the shape of a fetch.
 *
 * @packageDocumentation
 * @module @x/client/node
 */
// Node-only entry of @x/client. The client on Node already sends through its own node:http(s)
// sender (send.ts), with the proxy of the environment; createNodeFetch is that same sender with
// options, as a fetch. Given to createClient, the client sends through the sender itself (no
// Response is made); called directly, it answers a standard Response built from what the sender
// read. The portable client never imports this file.
import { ResponseTooLargeError } from '../errors.js';
import { MAX_RESPONSE_BYTES } from '../transport/body.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../transport/options.js';
import { SENDER, type Exchange } from '../transport/sender.js';
import type { ConnectOptions } from './connect.js';
import { createNodeSender } from './send.js';

export type { ProxyOptions } from './proxy.js';

export interface NodeFetchOptions extends ConnectOptions {
  /**
   * The most bytes of one answer it reads when called directly. Default 1 MiB. A longer answer
   * (or a longer Content-Length) destroys the connection and rejects with a
   * `ResponseTooLargeError`. A client given this fetch applies its own `maxResponseBytes`.
   */
  maxResponseBytes?: number | undefined;
}

/**
 * The client's Node transport with options, for `createClient({ fetch })`: a proxy (`proxy`,
 * `noProxy`; by default HTTPS_PROXY / HTTP_PROXY / NO_PROXY), TLS options (`tls.ca` for a private
 * certificate authority) and the pool size (`maxSockets`). `createNodeFetch()` once, reuse it.
 * Called directly it is a fetch for string bodies; redirects are answered as they are (3xx with
 * Location), never followed. Request mocks (msw, nock) see and block it, like the default transport.
 *
 * An unusable proxy URL (an unknown scheme, a bad % escape in its password) is a
 * `ConfigurationError` here, naming where it came from and never its value.
 *
 * @example
 * ```ts
 * import { createClient } from '@x/client';
 * import { createNodeFetch } from '@x/client/node';
 *
 * const client = createClient({ customerId, apiKey, fetch: createNodeFetch({ proxy: 'http://proxy.internal:3128' }) });
 * ```
 */
export function createNodeFetch(options: NodeFetchOptions = {}): typeof fetch {
  const sender = createNodeSender(options);
  const defaultCap = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;

  const nodeFetch = async (input: RequestInfo | URL, init: RequestInit & { [MAX_RESPONSE_BYTES]?: number } = {}): Promise<Response> => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const method = (init.method ?? 'GET').toUpperCase();
    const { body } = init;
    if (body !== undefined && body !== null && typeof body !== 'string') throw new TypeError('createNodeFetch sends string bodies only (what @x/client sends).');
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => (headers[name] = value));
    // The length of the body sent is the sender's to write, whatever the caller gave.
    delete headers['content-length'];
    const cap = init[MAX_RESPONSE_BYTES] ?? defaultCap;
    const exchange = await sender({ method, url, headers, body: body ?? undefined, timeoutMs: 0, maxResponseBytes: cap, signal: init.signal ?? undefined });
    return responseOf(exchange, { cap, method, path: url.pathname });
  };
  Object.defineProperty(nodeFetch, SENDER, { value: sender });
  return nodeFetch as typeof fetch;
}

/** What the sender read, as a fetch answers it. */
function responseOf(exchange: Exchange, request: { cap: number; method: string; path: string }): Response {
  switch (exchange.kind) {
    case 'answer':
    case 'redirect': {
      const { status } = exchange.answer;
      const init = { status, headers: exchange.answer.headers() };
      const text = exchange.kind === 'answer' ? exchange.text : '';
      const empty = text === '' || status === 204 || status === 205 || status === 304 || request.method === 'HEAD';
      return new Response(empty ? null : text, init);
    }
    case 'too_large':
      throw new ResponseTooLargeError({ status: exchange.status, limitBytes: request.cap, method: request.method, path: request.path });
    case 'aborted':
      throw exchange.reason;
    case 'timeout':
      throw new TypeError('fetch failed');
    case 'failed':
      // Errors keep their cause codes (ECONNREFUSED, ENOTFOUND), which the client's retry policy reads.
      throw new TypeError('fetch failed', { cause: exchange.error });
  }
}

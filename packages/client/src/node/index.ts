/**
 * Node-only entry of `@x/client`: `createNodeFetch`, a keep-alive fetch with proxy support.
 *
 * @packageDocumentation
 * @module @x/client/node
 */
// Node-only entry of @x/client: a fetch built on node:http(s) with keep-alive agents. Node 20's
// global fetch spends about twice the CPU per request; this one implements exactly what the client
// uses (method, headers, string body, AbortSignal; status, headers, text). It never follows
// redirects and never reads more than its cap. It goes through an HTTP(S) proxy when told to or
// when HTTPS_PROXY / HTTP_PROXY say so (https targets through a CONNECT tunnel, by
// https-proxy-agent; http targets as absolute-URI requests). The portable client never imports
// this file, nor https-proxy-agent.
import type { IncomingMessage } from 'node:http';
import { ResponseTooLargeError } from '../errors.js';
import { BUFFERED_BYTES, MAX_RESPONSE_BYTES } from '../transport/body.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../transport/options.js';
import { createConnect, type ConnectOptions } from './connect.js';

export type { ProxyOptions } from './proxy.js';

export interface NodeFetchOptions extends ConnectOptions {
  /**
   * The most bytes of one answer it reads. Default 1 MiB. A longer answer (or a longer
   * Content-Length) destroys the connection and rejects with a `ResponseTooLargeError`. The
   * client passes its own `maxResponseBytes` with every request, which takes precedence.
   */
  maxResponseBytes?: number | undefined;
}

/**
 * A fetch for `createClient({ fetch })` on Node: `createNodeFetch()` once, reuse it. Supports what
 * the client sends (string bodies, AbortSignal); not a general replacement for fetch. Redirects
 * are answered as they are (3xx with Location), never followed.
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
  const connect = createConnect(options);

  const defaultCap = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;

  const nodeFetch = (input: RequestInfo | URL, init: RequestInit & { [MAX_RESPONSE_BYTES]?: number } = {}): Promise<Response> =>
    new Promise((resolve, reject) => {
      const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
      const cap = init[MAX_RESPONSE_BYTES] ?? defaultCap;
      const signal = init.signal ?? undefined;
      const method = init.method ?? 'GET';
      if (signal?.aborted) return reject(signal.reason);
      if (init.body !== undefined && init.body !== null && typeof init.body !== 'string') {
        return reject(new TypeError('createNodeFetch sends string bodies only (what @x/client sends).'));
      }
      // The client passes a plain object; anything else goes through Headers.
      const given = init.headers;
      const headers: Record<string, string> = {};
      if (given && !(given instanceof Headers) && !Array.isArray(given)) Object.assign(headers, given);
      else new Headers(given).forEach((value, name) => (headers[name] = value));
      // The length of the body sent is ours to write (connect adds it), whatever the caller gave.
      if (typeof init.body === 'string') for (const name in headers) if (name.toLowerCase() === 'content-length') delete headers[name];

      const onResponse = (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        // Past the cap: destroy the socket (it never returns to the pool) and stop buffering.
        const tooLarge = () => {
          req.destroy();
          reject(new ResponseTooLargeError({ status: res.statusCode ?? 0, limitBytes: cap, method, path: url.pathname }));
        };
        if (method.toUpperCase() !== 'HEAD' && Number(res.headers['content-length'] ?? 0) > cap) return tooLarge();
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > cap) return tooLarge();
          chunks.push(chunk);
        });
        res.on('error', reject);
        res.on('end', () => {
          const responseHeaders = new Headers();
          for (let i = 0; i < res.rawHeaders.length; i += 2) responseHeaders.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
          const status = res.statusCode ?? 0;
          const init = { status, statusText: res.statusMessage ?? '', headers: responseHeaders };
          resolve(status === 204 || status === 304 ? new Response(null, init) : bufferedResponse(Buffer.concat(chunks), init));
        });
      };

      const { req } = connect(url, { method, headers, contentLength: typeof init.body === 'string' ? Buffer.byteLength(init.body) : undefined, signal }, onResponse, (cause) => {
        reject(new TypeError('fetch failed', { cause }));
      });
      // Errors keep their cause codes (ECONNREFUSED, ENOTFOUND), which the client's retry policy reads.
      req.on('error', (error) => reject(signal?.aborted ? signal.reason : new TypeError('fetch failed', { cause: error })));
      if (typeof init.body === 'string') req.end(init.body);
      else req.end();
    });
  return nodeFetch as typeof fetch;
}

/**
 * A real Response (real Headers, `instanceof Response`) whose body is already in memory: it is
 * created without a body stream, and text/json/arrayBuffer read the bytes directly, which costs
 * a small fraction of a streamed body. `body`, `blob`, `formData` and `bytes` fall back to a
 * standard Response over the same bytes. Unlike a streamed body, it can be read more than once.
 */
function bufferedResponse(bytes: Buffer, init: ResponseInit): Response {
  const response = new Response(null, init);
  // Tells the client that the body is already in memory (and how long): no stream to read.
  Object.defineProperty(response, BUFFERED_BYTES, { value: bytes.byteLength });
  let text: string | undefined;
  let standard: Response | undefined;
  const read = () => (text ??= bytes.toString('utf8'));
  const copy = () => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const full = () => (standard ??= new Response(copy(), init));
  Object.defineProperties(response, {
    text: { value: async () => read() },
    json: { value: async () => JSON.parse(read()) as unknown },
    arrayBuffer: { value: async () => copy() },
    bytes: { value: async () => new Uint8Array(copy()) },
    blob: { value: () => full().blob() },
    formData: { value: () => full().formData() },
    body: { get: () => full().body },
    clone: { value: () => bufferedResponse(bytes, init) },
  });
  return response;
}

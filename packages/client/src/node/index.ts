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
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { checkServerIdentity, type PeerCertificate } from 'node:tls';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { ResponseTooLargeError } from '../errors.js';
import { BUFFERED_BYTES, MAX_RESPONSE_BYTES } from '../transport/body.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../transport/options.js';
import { proxyRoute, type ProxyOptions } from './proxy.js';

export type { ProxyOptions } from './proxy.js';

/** The cause code of a tunnel the proxy refused (its CONNECT answered other than 200): nothing was sent. */
const PROXY_TUNNEL_REFUSED = 'ERR_PROXY_TUNNEL';

export interface NodeFetchOptions extends ProxyOptions {
  /** Sockets kept per host. Default 64. */
  maxSockets?: number | undefined;
  /** Extra TLS options for https (e.g. `ca` for a private certificate authority), also for an https proxy. */
  tls?: { ca?: string | Uint8Array | Array<string | Uint8Array> | undefined; rejectUnauthorized?: boolean | undefined } | undefined;
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
  const maxSockets = options.maxSockets ?? 64;
  const tls = options.tls as import('node:https').AgentOptions | undefined;
  const http = new HttpAgent({ keepAlive: true, maxSockets });
  const https = new HttpsAgent({ keepAlive: true, maxSockets, ...tls });
  const route = proxyRoute(options, process.env);
  // One tunnelling agent per proxy, kept: its tunnels are pooled like direct sockets.
  const tunnels = new Map<string, HttpsProxyAgent<string>>();
  const tunnel = (proxy: URL) => {
    let agent = tunnels.get(proxy.href);
    if (!agent) tunnels.set(proxy.href, (agent = new HttpsProxyAgent(proxy, { keepAlive: true, maxSockets, ...tls })));
    return agent;
  };

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
      if (typeof init.body === 'string') headers['content-length'] = String(Buffer.byteLength(init.body));

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

      const proxy = route(url);
      const secure = url.protocol === 'https:';
      let req: ClientRequest;
      if (!proxy) {
        req = (secure ? httpsRequest : httpRequest)(url, { method, headers, agent: secure ? https : http, signal }, onResponse);
      } else if (secure) {
        // CONNECT tunnel, then TLS to the target through it: the proxy sees neither headers nor body.
        req = httpsRequest(url, { method, headers, agent: tunnel(proxy), signal, ...tls, ...ipIdentity(url) }, onResponse);
        req.on('proxyConnect', (connect: IncomingMessage) => {
          if (connect.statusCode === 200) return;
          const cause = Object.assign(new Error(`the proxy ${proxy.host} refused a tunnel to ${url.host}: HTTP ${connect.statusCode} ${connect.statusMessage ?? ''}`.trim()), { code: PROXY_TUNNEL_REFUSED, status: connect.statusCode });
          reject(new TypeError('fetch failed', { cause }));
          req.destroy();
        });
      } else {
        req = (proxy.protocol === 'https:' ? httpsRequest : httpRequest)(absoluteUriRequest(proxy, url, method, headers, signal), onResponse);
      }
      // Errors keep their cause codes (ECONNREFUSED, ENOTFOUND), which the client's retry policy reads.
      req.on('error', (error) => reject(signal?.aborted ? signal.reason : new TypeError('fetch failed', { cause: error })));
      if (typeof init.body === 'string') req.end(init.body);
      else req.end();
    });
  return nodeFetch as typeof fetch;

  /**
   * Through a tunnel, a target named by its IP address would be checked against "localhost" (the
   * agent passes no host to TLS then, and SNI cannot carry an IP): check it against that address.
   */
  function ipIdentity(url: URL): { checkServerIdentity?: (host: string, cert: PeerCertificate) => Error | undefined } {
    const address = url.hostname.replace(/^\[|\]$/g, '');
    return isIP(address) ? { checkServerIdentity: (_host, cert) => checkServerIdentity(address, cert) } : {};
  }

  /** An http target through a proxy: the full URL as the request target, to the proxy's address. */
  function absoluteUriRequest(proxy: URL, url: URL, method: string, headers: Record<string, string>, signal: AbortSignal | undefined): RequestOptions {
    const toProxy: Record<string, string> = { ...headers, host: url.host };
    if (proxy.username || proxy.password) {
      toProxy['proxy-authorization'] = `Basic ${Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString('base64')}`;
    }
    const secureProxy = proxy.protocol === 'https:';
    return {
      protocol: proxy.protocol,
      hostname: proxy.hostname.replace(/^\[|\]$/g, ''),
      port: proxy.port || (secureProxy ? 443 : 80),
      path: url.href,
      method,
      headers: toProxy,
      agent: secureProxy ? https : http,
      signal,
    };
  }
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

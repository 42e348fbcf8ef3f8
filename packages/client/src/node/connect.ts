// Opening one request on Node, shared by createNodeFetch and the default Node sender: keep-alive
// agents (one pair per fetch or client), and the proxy route (the `proxy` option, else
// HTTPS_PROXY / HTTP_PROXY / NO_PROXY): https targets through a CONNECT tunnel (https-proxy-agent),
// http targets as absolute-URI requests to the proxy.
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage, type OutgoingHttpHeaders, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest, type AgentOptions } from 'node:https';
import { isIP, type Socket } from 'node:net';
import { checkServerIdentity, type PeerCertificate } from 'node:tls';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { bareHost } from '../transport/url.js';
import { proxyRoute, type ProxyOptions } from './proxy.js';

/** The cause code of a tunnel the proxy refused (its CONNECT answered other than 200): nothing was sent. */
export const PROXY_TUNNEL_REFUSED = 'ERR_PROXY_TUNNEL';

export interface ConnectOptions extends ProxyOptions {
  /** Sockets kept per host. Default 64. */
  maxSockets?: number | undefined;
  /** Extra TLS options for https (e.g. `ca` for a private certificate authority), also for an https proxy. */
  tls?: { ca?: string | Uint8Array | Array<string | Uint8Array> | undefined; rejectUnauthorized?: boolean | undefined } | undefined;
}

export interface Opened {
  req: ClientRequest;
  /** Set when the request goes through a proxy. */
  proxy: URL | undefined;
}

/**
 * A function that opens a request (not yet ended) to `url`. `onTunnelRefused` gets an error whose
 * code is ERR_PROXY_TUNNEL when a proxy refuses the CONNECT; the request is destroyed after it.
 */
export type Connect = (
  url: URL,
  init: { method: string; headers: OutgoingHttpHeaders; contentLength?: number | undefined; signal?: AbortSignal | undefined },
  onResponse: (res: IncomingMessage) => void,
  onTunnelRefused: (error: Error) => void,
) => Opened;

export function createConnect(options: ConnectOptions): Connect {
  const maxSockets = options.maxSockets ?? 64;
  const tls = options.tls as AgentOptions | undefined;
  const agentOptions = { keepAlive: true, maxSockets, scheduling: 'lifo' as const };
  const http = closeIdle(new HttpAgent(agentOptions));
  const https = closeIdle(new HttpsAgent({ ...agentOptions, ...tls }));
  const route = proxyRoute(options, process.env);
  // One tunnelling agent per proxy, kept: its tunnels are pooled like direct sockets.
  const tunnels = new Map<string, HttpsProxyAgent<string>>();
  const tunnel = (proxy: URL) => {
    let agent = tunnels.get(proxy.href);
    if (!agent) tunnels.set(proxy.href, (agent = new HttpsProxyAgent(proxy, { keepAlive: true, maxSockets, ...tls })));
    return agent;
  };

  return (url, { method, headers: given, contentLength, signal }, onResponse, onTunnelRefused) => {
    const proxy = route(url);
    const secure = url.protocol === 'https:';
    if (!proxy) {
      // Headers as a flat list: Node writes them as they are (after validating them), without the
      // per-header bookkeeping of setHeader. Host is then ours to add.
      const raw: string[] = [];
      for (const name in given) raw.push(name, String(given[name]));
      if (contentLength !== undefined) raw.push('content-length', String(contentLength));
      if (given.host === undefined) raw.push('host', url.host);
      const options: RequestOptions = {
        protocol: url.protocol,
        hostname: bareHost(url.hostname),
        port: url.port,
        path: url.pathname + url.search,
        method,
        headers: raw as unknown as OutgoingHttpHeaders,
        agent: secure ? https : http,
        signal,
      };
      return { req: (secure ? httpsRequest : httpRequest)(options, onResponse), proxy };
    }
    const headers = contentLength === undefined ? given : { ...given, 'content-length': String(contentLength) };
    if (secure) {
      // CONNECT tunnel, then TLS to the target through it: the proxy sees neither headers nor body.
      const req = httpsRequest(url, { method, headers, agent: tunnel(proxy), signal, ...tls, ...ipIdentity(url) }, onResponse);
      req.on('proxyConnect', (connect: IncomingMessage) => {
        if (connect.statusCode === 200) return;
        const message = `the proxy ${proxy.host} refused a tunnel to ${url.host}: HTTP ${connect.statusCode} ${connect.statusMessage ?? ''}`.trim();
        onTunnelRefused(Object.assign(new Error(message), { code: PROXY_TUNNEL_REFUSED, status: connect.statusCode }));
        req.destroy();
      });
      return { req, proxy };
    }
    return { req: (proxy.protocol === 'https:' ? httpsRequest : httpRequest)(absoluteUriRequest(proxy, url, method, headers, signal), onResponse), proxy };
  };

  /** An http target through a proxy: the full URL as the request target, to the proxy's address. */
  function absoluteUriRequest(proxy: URL, url: URL, method: string, headers: OutgoingHttpHeaders, signal: AbortSignal | undefined): RequestOptions {
    const toProxy: OutgoingHttpHeaders = { ...headers, host: url.host };
    if (proxy.username || proxy.password) {
      toProxy['proxy-authorization'] = `Basic ${Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString('base64')}`;
    }
    const secureProxy = proxy.protocol === 'https:';
    return {
      protocol: proxy.protocol,
      hostname: bareHost(proxy.hostname),
      port: proxy.port || (secureProxy ? 443 : 80),
      path: url.href,
      method,
      headers: toProxy,
      agent: secureProxy ? https : http,
      signal,
    };
  }
}

/** How long a socket may sit idle in the pool. */
const IDLE_MS = 4_000;

/**
 * Idle sockets are unref'd by the agent (they never keep a process alive) and closed after
 * IDLE_MS, as undici does: before most servers' keep-alive timeouts (5 s and up), so that a
 * request is rarely written to a connection the server is closing (an SMS's fate would then be
 * unknown). The timer runs only while a socket is idle (the agent's `timeout` option would also
 * arm it, and listen for it, on every request).
 */
function closeIdle<A extends HttpAgent>(agent: A): A {
  const keep = agent.keepSocketAlive.bind(agent) as (socket: Socket) => boolean;
  const reuse = agent.reuseSocket.bind(agent);
  agent.keepSocketAlive = ((socket: Socket) => {
    if (!keep(socket)) return false;
    // A timeout on a pooled socket makes the agent destroy it.
    socket.setTimeout(IDLE_MS);
    return true;
  }) as unknown as A['keepSocketAlive'];
  agent.reuseSocket = (socket, request) => {
    (socket as Socket).setTimeout(0);
    reuse(socket, request);
  };
  return agent;
}

/**
 * Through a tunnel, a target named by its IP address would be checked against "localhost" (the
 * agent passes no host to TLS then, and SNI cannot carry an IP): check it against that address.
 */
function ipIdentity(url: URL): { checkServerIdentity?: (host: string, cert: PeerCertificate) => Error | undefined } {
  const address = bareHost(url.hostname);
  return isIP(address) ? { checkServerIdentity: (_host, cert) => checkServerIdentity(address, cert) } : {};
}

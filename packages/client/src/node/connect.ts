// Opening one request on Node, for the one Node sender (send.ts): keep-alive agents (one pair
// per sender), and the proxy route (the `proxy` option, else HTTPS_PROXY / HTTP_PROXY / NO_PROXY):
// https targets through a CONNECT tunnel (https-proxy-agent, loaded when first needed), http
// targets as absolute-URI requests to the proxy.
//
// node:http and node:https are called through their module objects (builtins.ts), read at each request:
// request mocks (msw, nock, @mswjs/interceptors) replace `request` on those objects, and a
// function imported by name would keep the original (and reach the network under a mock).
import type { Agent, ClientRequest, IncomingMessage, OutgoingHttpHeaders, RequestOptions } from 'node:http';
import type { AgentOptions, Agent as HttpsAgent } from 'node:https';
import type { Socket } from 'node:net';
import type { PeerCertificate } from 'node:tls';
import type { HttpsProxyAgent } from 'https-proxy-agent';
import { bareHost } from '../transport/url.js';
import { http, https, isIP, checkServerIdentity } from './builtins.js';
import { proxyAgentModule } from './proxy-agent.js';
import { proxyAuthorization, proxyRoute, type ProxyOptions } from './proxy.js';

/** The cause code of a tunnel the proxy refused (its CONNECT answered other than 200): nothing was sent. */
export const PROXY_TUNNEL_REFUSED = 'ERR_PROXY_TUNNEL';

export interface ConnectOptions extends ProxyOptions {
  /** Sockets kept per host. Default 64. */
  maxSockets?: number | undefined;
  /** Extra TLS options for https (e.g. `ca` for a private certificate authority), also for an https proxy. */
  tls?: { ca?: string | Uint8Array | Array<string | Uint8Array> | undefined; rejectUnauthorized?: boolean | undefined } | undefined;
}

/**
 * A function that opens a request (not yet ended) to `url`. `onTunnelRefused` gets an error whose
 * code is ERR_PROXY_TUNNEL when a proxy refuses the CONNECT; the request is destroyed after it.
 * Throws a ConfigurationError, before anything is opened, when a proxy applies and its agent is
 * not installed.
 */
export type Connect = (
  url: URL,
  init: { method: string; headers: OutgoingHttpHeaders; contentLength?: number | undefined },
  onResponse: (res: IncomingMessage) => void,
  onTunnelRefused: (error: Error) => void,
) => ClientRequest;

export function createConnect(options: ConnectOptions): Connect {
  const maxSockets = options.maxSockets ?? 64;
  const tls = options.tls as AgentOptions | undefined;
  const agentOptions = { keepAlive: true, maxSockets, scheduling: 'lifo' as const };
  // The route is read now: an unusable proxy is a ConfigurationError when the client is created.
  const route = proxyRoute(options, process.env);
  // Made at the first request of each kind (most clients speak https only).
  let httpAgent: Agent | undefined;
  let httpsAgent: HttpsAgent | undefined;
  const agentFor = (secure: boolean) => (secure ? (httpsAgent ??= closeIdle(new (https()).Agent({ ...agentOptions, ...tls }))) : (httpAgent ??= closeIdle(new (http()).Agent(agentOptions))));
  // One tunnelling agent per proxy, kept: its tunnels are pooled like direct sockets.
  const tunnels = new Map<string, HttpsProxyAgent<string>>();
  const tunnel = (proxy: URL) => {
    let agent = tunnels.get(proxy.href);
    if (!agent) tunnels.set(proxy.href, (agent = new (proxyAgentModule(proxy.host).HttpsProxyAgent)(proxy, { keepAlive: true, maxSockets, ...tls })));
    return agent;
  };

  return (url, { method, headers: given, contentLength }, onResponse, onTunnelRefused) => {
    const proxy = route(url);
    const secure = url.protocol === 'https:';
    if (!proxy) {
      // Headers as a flat list: Node writes them as they are (after validating them), without the
      // per-header bookkeeping of setHeader. Host is then ours to add.
      const raw: string[] = [];
      for (const name in given) raw.push(name, String(given[name]));
      if (contentLength !== undefined) raw.push('content-length', String(contentLength));
      if (given.host === undefined) raw.push('host', url.host);
      const request: RequestOptions = {
        protocol: url.protocol,
        hostname: bareHost(url.hostname),
        port: url.port,
        path: url.pathname + url.search,
        method,
        headers: raw as unknown as OutgoingHttpHeaders,
        agent: agentFor(secure),
      };
      return secure ? https().request(request, onResponse) : http().request(request, onResponse);
    }
    const headers = contentLength === undefined ? given : { ...given, 'content-length': String(contentLength) };
    if (secure) {
      // CONNECT tunnel, then TLS to the target through it: the proxy sees neither headers nor body.
      const req = https().request(url, { method, headers, agent: tunnel(proxy), ...tls, ...ipIdentity(url) }, onResponse);
      req.on('proxyConnect', (connect: IncomingMessage) => {
        if (connect.statusCode === 200) return;
        const message = `the proxy ${proxy.host} refused a tunnel to ${url.host}: HTTP ${connect.statusCode} ${connect.statusMessage ?? ''}`.trim();
        onTunnelRefused(Object.assign(new Error(message), { code: PROXY_TUNNEL_REFUSED, status: connect.statusCode }));
        req.destroy();
      });
      return req;
    }
    // An http target: the full URL as the request target, to the proxy's address.
    const secureProxy = proxy.protocol === 'https:';
    const authorization = proxyAuthorization(proxy);
    const request: RequestOptions = {
      protocol: proxy.protocol,
      hostname: bareHost(proxy.hostname),
      port: proxy.port || (secureProxy ? 443 : 80),
      path: url.href,
      method,
      headers: { ...headers, host: url.host, ...(authorization ? { 'proxy-authorization': authorization } : {}) },
      agent: agentFor(secureProxy),
    };
    return secureProxy ? https().request(request, onResponse) : http().request(request, onResponse);
  };
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
function closeIdle<A extends Agent>(agent: A): A {
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

// Which proxy a request of the Node sender goes through, if any: the `proxy` option, else the
// conventional environment variables (https_proxy / HTTPS_PROXY for https targets, http_proxy /
// HTTP_PROXY for http targets), minus the hosts of `noProxy` / no_proxy / NO_PROXY. Read once,
// when the sender is created (with the client): an unusable proxy URL is refused then, before
// any socket is opened, and no error ever carries its value (it may hold a password).
import { ConfigurationError } from '../errors.js';
import { bareHost } from '../transport/url.js';

export interface ProxyOptions {
  /**
   * The proxy for every request: `http://proxy.internal:3128` (credentials in the URL are sent
   * as Proxy-Authorization), `https://...` for a proxy spoken to over TLS, or `false` for none.
   * Default: `https_proxy`/`HTTPS_PROXY` for https targets, `http_proxy`/`HTTP_PROXY` for http.
   */
  proxy?: string | URL | false | undefined;
  /**
   * Hosts reached directly, in NO_PROXY syntax (`"localhost,.internal.example,10.0.0.0/8"`) or as
   * a list. Default: `no_proxy`/`NO_PROXY`.
   */
  noProxy?: string | readonly string[] | undefined;
}

/** The proxy for a target, or undefined to go directly. */
export type ProxyRoute = (target: URL) => URL | undefined;

type Env = Readonly<Record<string, string | undefined>>;

const set = (value: string | undefined): string | undefined => (value === undefined || value.trim() === '' ? undefined : value.trim());

/** A proxy URL, checked; `source` names where it came from (never its value: it may hold a password). */
function proxyUrl(value: string | URL, source: string): URL {
  const text = String(value);
  let url: URL;
  try {
    // Like curl, a proxy without a scheme is an http proxy.
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`);
  } catch {
    throw new ConfigurationError(`${source} is not a URL: give the proxy as http://host:port (or https://host:port).`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigurationError(`${source} is a ${url.protocol} proxy; the client speaks to HTTP(S) proxies only: pass proxy: false and a fetch of your own for it.`);
  }
  if (url.hostname === '') throw new ConfigurationError(`${source} names no host: give the proxy as http://host:port.`);
  for (const [part, value] of [['user name', url.username], ['password', url.password]] as const) {
    try {
      decodeURIComponent(value);
    } catch {
      throw new ConfigurationError(`${source} has a ${part} with a % that starts no valid escape: write a literal % as %25 (and other reserved characters percent-encoded).`);
    }
  }
  return url;
}

/** The Proxy-Authorization of a proxy URL's credentials (checked by proxyUrl), or undefined. */
export function proxyAuthorization(proxy: URL): string | undefined {
  if (!proxy.username && !proxy.password) return undefined;
  return `Basic ${Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString('base64')}`;
}

type Rule = { all: true } | { all?: false; host: string; port: string | undefined } | { all?: false; network: number; mask: number; port: string | undefined };

function ipv4(text: string): number | undefined {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return undefined;
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

/** An IPv6 address in its canonical form, as URL.hostname gives it (without the brackets). */
function canonicalIpv6(text: string): string | undefined {
  try {
    return new URL(`http://[${text}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
}

const trimDots = (host: string) => host.replace(/^\*?\.+/, '').replace(/\.+$/, '');

/** One NO_PROXY entry: `*`, a host or domain (`.example.com`, `*.example.com`), an IP, an IPv4 CIDR, each with an optional `:port`. */
function rule(entry: string): Rule | undefined {
  const text = entry.trim().toLowerCase();
  if (text === '') return undefined;
  if (text === '*') return { all: true };
  let host = text;
  let port: string | undefined;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (bracketed) [, host = '', port] = bracketed;
  else if ((text.match(/:/g) ?? []).length === 1) [host = '', port] = text.split(':');
  const cidr = /^([\d.]+)\/(\d{1,2})$/.exec(host);
  if (cidr) {
    const address = ipv4(cidr[1]!);
    const bits = Number(cidr[2]);
    if (address === undefined || bits > 32) return undefined;
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    return { network: (address & mask) >>> 0, mask, port };
  }
  if (host.includes(':')) return { host: canonicalIpv6(host) ?? host, port };
  return { host: trimDots(host), port };
}

/** NO_PROXY entries, separated by commas or spaces. */
export function parseNoProxy(value: string | readonly string[] | undefined): Rule[] {
  const entries = typeof value === 'string' ? value.split(/[\s,]+/) : (value ?? []);
  return entries.map(rule).filter((r): r is Rule => r !== undefined);
}

/** Whether `target` is reached directly under these rules. */
export function bypasses(rules: readonly Rule[], target: URL): boolean {
  const host = trimDots(bareHost(target.hostname).toLowerCase());
  const port = target.port || (target.protocol === 'https:' ? '443' : '80');
  const address = ipv4(host);
  return rules.some((r) => {
    if (r.all) return true;
    if (r.port !== undefined && r.port !== port) return false;
    if ('network' in r) return address !== undefined && ((address & r.mask) >>> 0) === r.network;
    return host === r.host || host.endsWith(`.${r.host}`);
  });
}

/**
 * The route of a sender: the `proxy` option when given (with `noProxy`), else the environment.
 * Unusable proxy URLs are a ConfigurationError here, when the sender is created.
 */
export function proxyRoute(options: ProxyOptions, env: Env): ProxyRoute {
  if (options.proxy === false) return () => undefined;
  const rules = parseNoProxy(options.noProxy ?? set(env.no_proxy) ?? set(env.NO_PROXY));
  if (options.proxy !== undefined) {
    const proxy = proxyUrl(options.proxy, 'proxy');
    return (target) => (bypasses(rules, target) ? undefined : proxy);
  }
  const https = set(env.https_proxy) !== undefined ? proxyUrl(set(env.https_proxy)!, 'https_proxy') : set(env.HTTPS_PROXY) !== undefined ? proxyUrl(set(env.HTTPS_PROXY)!, 'HTTPS_PROXY') : undefined;
  // Under CGI, HTTP_PROXY can be set by a request's "Proxy:" header (httpoxy): only http_proxy counts there.
  const cgi = env.REQUEST_METHOD !== undefined;
  const httpValue = set(env.http_proxy) ?? (cgi ? undefined : set(env.HTTP_PROXY));
  const http = httpValue !== undefined ? proxyUrl(httpValue, set(env.http_proxy) !== undefined ? 'http_proxy' : 'HTTP_PROXY') : undefined;
  if (!https && !http) return () => undefined;
  return (target) => {
    const proxy = target.protocol === 'https:' ? https : http;
    return proxy && !bypasses(rules, target) ? proxy : undefined;
  };
}

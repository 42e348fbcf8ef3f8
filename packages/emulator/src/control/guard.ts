import { timingSafeEqual } from '@x/auth/protocol';
import { randomHex } from '../service/ids.js';
import { checkControlToken } from '../state/context.js';
import type { EmulatorEnv } from '../types.js';

/**
 * Who may use the control routes (/_emulator/*: outbox with codes, faults, reset).
 *
 * - In-process (`emulator.fetch`): anyone; nothing on a network can reach a function call.
 * - With a control token (a server bound to a non-loopback address, or one given explicitly):
 *   requests carrying `Authorization: Bearer <token>`, from any Host and Origin.
 * - Otherwise: requests addressed to a loopback host (localhost, 127.0.0.0/8, [::1], any port, or
 *   the name the server was started with), not sent by a page of another origin (Origin, when
 *   present, must be such a host too; `Sec-Fetch-Site: cross-site` is refused). This stops a web
 *   page from adding faults cross-site, and DNS rebinding from reading the outbox.
 */
export type ControlRefusal = 'foreign_peer' | 'foreign_host' | 'foreign_origin' | 'cross_site' | 'token_required' | 'invalid_token';

export const REFUSALS: Record<ControlRefusal, string> = {
  foreign_peer:
    'The control routes (/_emulator/*) answer only this machine: the request came from another address. Call the emulator from this machine (http://127.0.0.1:<port>), or give it a control token (createEmulator({ controlToken }), startEmulator({ controlToken }), x-emulator --control-token) and send "Authorization: Bearer <token>".',
  foreign_host:
    'The control routes (/_emulator/*) answer only requests addressed to this machine: Host localhost, 127.0.0.1 (any 127.x.y.z) or [::1], or the name the server was started with. Call the emulator at http://127.0.0.1:<port>; a page that reached it through another host name (DNS rebinding) is refused.',
  foreign_origin:
    'The control routes (/_emulator/*) do not answer web pages of other origins (the Origin header is not a loopback origin). Call them from your tests, the CLI or curl; or start the emulator with a control token and send "Authorization: Bearer <token>".',
  cross_site:
    'The control routes (/_emulator/*) do not answer cross-site requests (Sec-Fetch-Site: cross-site). Call them from your tests, the CLI or curl; or start the emulator with a control token and send "Authorization: Bearer <token>".',
  token_required:
    'This emulator requires its control token on the control routes (/_emulator/*): send "Authorization: Bearer <token>" with the token printed when it started (x-emulator prints it; startEmulator returns it as controlToken). An app mounted in a server that does not tell the peer\'s address (Node, Deno and Bun servers do) needs createEmulator({ controlToken }).',
  invalid_token: 'The control token does not match: send "Authorization: Bearer <token>" with the token printed when the emulator started.',
};

const OCTET = '(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const LOOPBACK_V4 = new RegExp(`^127\\.${OCTET}\\.${OCTET}\\.${OCTET}$`);

/** The lower-cased name of "name[:port]" or "[v6][:port]"; undefined when it is not that shape. */
function nameOf(host: string): string | undefined {
  let name: string;
  let rest: string;
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    if (end < 0) return undefined;
    name = host.slice(0, end + 1);
    rest = host.slice(end + 1);
  } else {
    const colon = host.indexOf(':');
    name = colon < 0 ? host : host.slice(0, colon);
    rest = colon < 0 ? '' : host.slice(colon);
  }
  if (name === '' || (rest !== '' && !/^:\d{1,5}$/.test(rest))) return undefined;
  return name.toLowerCase();
}

/** How a bind address or host name is written in a Host header: IPv6 in brackets, lower case. */
const asHostName = (hostname: string) => (hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname).toLowerCase();

const isLoopbackName = (name: string) => name === 'localhost' || name === '[::1]' || LOOPBACK_V4.test(name);

/** True for a loopback bind address or host name (localhost, 127.0.0.0/8, ::1). */
export const isLoopbackAddress = (hostname: string): boolean => isLoopbackName(asHostName(hostname));

/** A Host header value (or URL host) this emulator answers control requests for. */
export function isAllowedHost(host: string, hostnames: readonly string[] = []): boolean {
  const name = nameOf(host);
  return name !== undefined && (isLoopbackName(name) || hostnames.some((h) => asHostName(h) === name));
}

/** An Origin header value of a page served from an allowed host (http or https, no path). */
export function isAllowedOrigin(origin: string, hostnames: readonly string[] = []): boolean {
  const match = /^https?:\/\/([^/?#@\\]+)$/i.exec(origin);
  return match !== null && isAllowedHost(match[1]!, hostnames);
}

/** A peer address of this machine: 127.0.0.0/8, ::1, or either as an IPv4-mapped IPv6 address. */
export const isLoopbackPeer = (address: string): boolean => {
  const lower = address.toLowerCase();
  return isLoopbackAddress(lower.startsWith('::ffff:') ? lower.slice(7) : lower);
};

/**
 * The peer's address where the server tells it: our own Node adapter (`peerAddress`),
 * `@hono/node-server` (`incoming.socket.remoteAddress`), `Deno.serve` (`remoteAddr.hostname`),
 * `Bun.serve` (`requestIP(request).address`). Undefined elsewhere.
 */
export function peerAddress(request: Request, env: unknown): string | undefined {
  if (typeof env !== 'object' || env === null) return undefined;
  const e = env as { peerAddress?: unknown; incoming?: { socket?: { remoteAddress?: unknown } }; remoteAddr?: { hostname?: unknown }; requestIP?: unknown };
  const found =
    e.peerAddress ??
    e.incoming?.socket?.remoteAddress ??
    e.remoteAddr?.hostname ??
    (typeof e.requestIP === 'function' ? (e.requestIP as (r: Request) => { address?: unknown } | null)(request)?.address : undefined);
  return typeof found === 'string' && found !== '' ? found : undefined;
}

/**
 * Why a control request is refused, or undefined when it may proceed. `controlToken` is the
 * emulator's own (`createEmulator({ controlToken })`); a server adapter may pass one in `env`.
 */
export function controlRefusal(request: Request, env: EmulatorEnv | undefined, controlToken?: string): ControlRefusal | undefined {
  if (env?.inProcess) return undefined;
  const headers = request.headers;
  const token = env?.controlToken ?? controlToken;
  if (token !== undefined) {
    const given = /^Bearer +(\S+) *$/i.exec(headers.get('authorization') ?? '')?.[1];
    if (given === undefined) return 'token_required';
    return timingSafeEqual(given, token) ? undefined : 'invalid_token';
  }
  // Loopback by the peer's address where the server tells it; a token where it does not.
  const peer = peerAddress(request, env);
  if (peer === undefined) return 'token_required';
  if (!isLoopbackPeer(peer)) return 'foreign_peer';
  const hostnames = env?.hostnames ?? [];
  const host = headers.get('host');
  if (host !== null && !isAllowedHost(host, hostnames)) return 'foreign_host';
  if (!isAllowedHost(new URL(request.url).host, hostnames)) return 'foreign_host';
  const origin = headers.get('origin');
  if (origin !== null && !isAllowedOrigin(origin, hostnames)) return 'foreign_origin';
  if (headers.get('sec-fetch-site')?.toLowerCase() === 'cross-site') return 'cross_site';
  return undefined;
}

export interface ControlSettings {
  /** Host names accepted besides loopback: the bind address, unless it is a wildcard. */
  hostnames: string[];
  /** Required on the control routes when set. */
  controlToken?: string;
  /** For the log, when the server is reachable from other machines (never contains the token). */
  warning?: string;
}

/**
 * What a server bound to `hostname` applies to its control routes: on a loopback address nothing
 * more than the Host/Origin checks (unless a token is given); on any other address a token is
 * required, generated when none is given, and a warning is due.
 */
export function controlSettings(options: { hostname: string; controlToken?: string }): ControlSettings {
  const { hostname, controlToken } = options;
  checkControlToken(controlToken);
  const wildcard = hostname === '' || hostname === '0.0.0.0' || hostname === '::' || hostname === '[::]';
  const hostnames = wildcard ? [] : [hostname];
  if (isLoopbackAddress(hostname)) return controlToken === undefined ? { hostnames } : { hostnames, controlToken };
  return {
    hostnames,
    controlToken: controlToken ?? randomHex(24),
    warning:
      `Listening on ${hostname}, which other machines may reach. The service routes accept anyone who has the account credentials (the default account's key is public); ` +
      'the control routes (/_emulator/*) require the control token: send "Authorization: Bearer <token>". Bind to 127.0.0.1 unless you need this.',
  };
}

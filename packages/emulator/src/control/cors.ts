// CORS for the service routes (opt-in: `cors: true`, `--cors`), so that a web page can try the
// auth package against the emulator. The control routes never answer other origins (control/guard.ts).
import type { MiddlewareHandler } from 'hono';
import type { EmulatorContext } from '../state/context.js';
import { report } from '../logger.js';
import { json } from '../service/respond.js';
import type { EmulatorEnv } from '../types.js';
import { headerOf } from './headers.js';
import { isControlPath } from '../paths.js';

/** Methods of the service routes. */
const METHODS = 'GET, POST, PUT, PATCH, DELETE';
/** What a signing page sends: the signature, its date and nonce, the auth method, the body's type, any other X-TS-* header. */
const ALLOWED_HEADERS = ['authorization', 'content-type', 'x-ts-date', 'x-ts-nonce', 'x-ts-auth-method'];
/** What a client reads besides the safelisted headers: the server's Date (clock offset of an auth failure), Retry-After, Allow. */
export const EXPOSED_HEADERS = 'Date, Retry-After, Allow';
/** How long a browser may keep a preflight's answer. */
const MAX_AGE_SECONDS = 600;

export const CORS_OFF_MESSAGE =
  'This emulator does not answer web pages of other origins (CORS is off). Start it with --cors (x-emulator --cors), or startEmulator({ cors: true }) / createEmulator({ cors: true }), to call the service routes from a page. The control routes (/_emulator/*) stay closed to other origins either way.';

/** The headers a preflight asks for that a signing page may send (Authorization, Content-Type, X-TS-*); the others are left out. */
function allowedHeaders(requested: string | null): string {
  const names = (requested ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h !== '' && (ALLOWED_HEADERS.includes(h) || /^x-ts-[a-z0-9-]{1,64}$/.test(h)));
  return [...new Set([...ALLOWED_HEADERS, ...names])].join(', ');
}

/**
 * On: preflights of the service routes get 204 with the methods and headers allowed; answers get
 * `Access-Control-Allow-Origin` (the page's origin) and the exposed headers. Off: a preflight gets
 * 403 with a body that says how to turn it on (visible in the browser's network panel), and the
 * logger warns once per origin.
 */
type CorsEnv = { Bindings: EmulatorEnv };

export function corsMiddleware(ctx: EmulatorContext): MiddlewareHandler<CorsEnv> {
  const warned = new Set<string>();
  return async (c, next) => {
    const origin = headerOf(c, 'origin');
    if (origin === undefined || isControlPath(c.req.path)) return next();
    const preflight = c.req.method === 'OPTIONS' && headerOf(c, 'access-control-request-method') !== undefined;
    if (!ctx.cors) {
      if (!preflight) return next();
      if (!warned.has(origin) && warned.size < 100) {
        warned.add(origin);
        report(ctx.logger, 'warn', `A web page (Origin ${origin.slice(0, 100)}) tried to call ${c.req.path}; CORS is off: start the emulator with --cors to allow it.`, { origin: origin.slice(0, 100) });
      }
      return json(403, { error: CORS_OFF_MESSAGE, code: 'cors_disabled' });
    }
    if (preflight) {
      return new Response(null, {
        status: 204,
        headers: {
          'access-control-allow-origin': origin,
          'access-control-allow-methods': METHODS,
          'access-control-allow-headers': allowedHeaders(headerOf(c, 'access-control-request-headers') ?? null),
          'access-control-max-age': String(MAX_AGE_SECONDS),
          vary: 'Origin, Access-Control-Request-Headers',
        },
      });
    }
    await next();
    const add = (headers: Headers) => {
      headers.set('access-control-allow-origin', origin);
      headers.set('access-control-expose-headers', EXPOSED_HEADERS);
      headers.append('vary', 'Origin');
    };
    try {
      // The emulator's own answers have mutable headers: changed in place, the journal still knows the answer.
      add(c.res.headers);
    } catch {
      const headers = new Headers(c.res.headers);
      add(headers);
      c.res = new Response(c.res.body, { status: c.res.status, statusText: c.res.statusText, headers });
    }
  };
}

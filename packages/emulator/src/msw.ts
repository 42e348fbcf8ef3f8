/**
 * Request handlers for msw that send every request for the service's hosts to an in-process
 * emulator: any client in the process (the official one included) talks to the emulator with no
 * change to its code.
 *
 * @packageDocumentation
 * @module @x/emulator/msw
 */
import { http, HttpResponse, type HttpHandler } from 'msw';
import { SERVICE_DOMAIN, SERVICE_HOSTS } from '@x/service/hosts';
import { EmulatorError } from './errors.js';
import type { Emulator } from './emulator.js';
import { SERVE, type Serve } from './in-process.js';

export { SERVICE_HOSTS };

export interface EmulatorHandlersOptions {
  /**
   * The origins whose requests the emulator answers (default: every host of `SERVICE_HOSTS`: the
   * REST hosts, the Intelligence host and the Verify API host). Add your own `baseUrl` here, e.g.
   * `[...Object.values(SERVICE_HOSTS), 'https://sms.example.test']`.
   */
  hosts?: readonly (string | URL)[] | undefined;
}

/** The origin (`https://host[:port]`) of one entry of `hosts`, without a trailing dot; a clear error for anything else. */
function originOf(host: string | URL): string {
  let url: URL | undefined;
  try {
    url = new URL(String(host));
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || (url.pathname !== '/' && url.pathname !== '') || url.username || url.password) {
    throw new EmulatorError('invalid_option', `emulatorHandlers: hosts must be origins such as 'https://rest-api.telesign.com' (scheme and host, no path); got ${JSON.stringify(String(host))}.`);
  }
  return url.origin.replace(/\.(?=(:\d+)?$)/, '');
}

/**
 * The URLs of an origin in every spelling a client may use: any case, the host with or without its
 * trailing dot (`rest-api.telesign.com.`, the same name in DNS). msw matches handlers against the
 * URL without its query.
 */
const originPattern = (origin: string) => new RegExp(`^${origin.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/(:\d+)?$/, '\\.?$&')}(?=[/?#]|$)`, 'i');

/** Requests for the service's domain (any host under it, with or without a trailing dot) that no host of `hosts` covers. */
const serviceDomain = new RegExp(`^https?://([^/?#]*\\.)?${SERVICE_DOMAIN.replace(/\./g, '\\.')}\\.?(:\\d+)?([/?#]|$)`, 'i');

/**
 * msw handlers that answer every request for the service's hosts with the emulator
 * (`emulator.fetch`): pass them to msw's `setupServer`; handlers of your own placed before them
 * win. A host is the same whatever its case and with a trailing dot (`rest-api.telesign.com.`).
 * Nothing for the service's domain is ever sent to the network:
 * - a request to another host of the service's domain that `hosts` leaves out fails with an
 *   `EmulatorError` (`unrouted_host`) that names the host;
 * - a method and path the emulator does not emulate (no route of the emulator serves it) fails
 *   with an `EmulatorError` (`not_emulated`) that names them, rather than a 404 the real service
 *   might not answer.
 *
 * msw answers both as a 500 carrying that message. A fault the emulator injects as a dropped or
 * reset connection is a network error, as it would be over a socket.
 *
 * @example
 * ```ts
 * import { setupServer } from 'msw/node';
 * import { createClient } from '@x/client';
 * import { createEmulator, DEFAULT_CUSTOMER } from '@x/emulator';
 * import { emulatorHandlers } from '@x/emulator/msw';
 *
 * const emulator = createEmulator();
 * const server = setupServer(...emulatorHandlers(emulator));
 * server.listen({ onUnhandledRequest: 'error' });
 * const client = createClient(DEFAULT_CUSTOMER); // the default host: msw sends it to the emulator
 * await client.messaging.send({ phoneNumber: '15555551234', message: 'hi', messageType: 'ARN' });
 * console.log(emulator.outbox.latest('15555551234')?.text); // hi
 * server.close();
 * ```
 */
export function emulatorHandlers(emulator: Pick<Emulator, 'fetch'>, options: EmulatorHandlersOptions = {}): HttpHandler[] {
  if (typeof emulator?.fetch !== 'function') throw new EmulatorError('invalid_option', 'emulatorHandlers: pass the emulator createEmulator() returned.');
  const given = options.hosts ?? Object.values(SERVICE_HOSTS);
  if (!Array.isArray(given) || given.length === 0) throw new EmulatorError('invalid_option', 'emulatorHandlers: hosts must be a non-empty array of origins.');
  const origins = [...new Set(given.map(originOf))];
  // The emulator's own entry tells whether a route served the request; a stand-in with only `fetch` is served as is.
  const inner = (emulator as { [SERVE]?: Serve })[SERVE];
  const serve = async ({ request }: { request: Request }): Promise<Response> => {
    try {
      if (!inner) return await emulator.fetch(request);
      const { response, notEmulated } = await inner(request);
      if (!notEmulated) return response;
      await response.body?.cancel();
    } catch (error) {
      // A dropped or reset connection (fault injection) or an aborted request: a network error.
      if (error instanceof TypeError || (error instanceof Error && error.name === 'AbortError')) return HttpResponse.error();
      throw error;
    }
    throw new EmulatorError('not_emulated', `@x/emulator/msw: ${request.method} ${new URL(request.url).pathname} is not emulated (see GET /_emulator/openapi.json); the request was not sent. Put a handler of your own before emulatorHandlers.`);
  };
  return [
    ...origins.map((origin) => http.all(originPattern(origin), serve)),
    http.all(serviceDomain, ({ request }) => {
      const { origin } = new URL(request.url);
      throw new EmulatorError(
        'unrouted_host',
        `@x/emulator/msw: ${request.method} ${origin} is a host of the service that emulatorHandlers does not route (it routes ${origins.join(', ')}); the request was not sent. Add it to the hosts option.`,
      );
    }),
  ];
}

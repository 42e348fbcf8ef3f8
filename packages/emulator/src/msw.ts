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

export { SERVICE_HOSTS };

export interface EmulatorHandlersOptions {
  /**
   * The origins whose requests the emulator answers (default: every host of `SERVICE_HOSTS`: the
   * REST hosts, the Intelligence host and the Verify API host). Add your own `baseUrl` here, e.g.
   * `[...Object.values(SERVICE_HOSTS), 'https://sms.example.test']`.
   */
  hosts?: readonly (string | URL)[] | undefined;
}

/** The origin (`https://host[:port]`) of one entry of `hosts`; a clear error for anything else. */
function originOf(host: string | URL): string {
  let url: URL | undefined;
  try {
    url = new URL(String(host));
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || (url.pathname !== '/' && url.pathname !== '')) {
    throw new EmulatorError('invalid_option', `emulatorHandlers: hosts must be origins such as 'https://rest-api.telesign.com' (scheme and host, no path); got ${JSON.stringify(String(host))}.`);
  }
  return url.origin;
}

/** Requests for the service's domain that no host of `hosts` covers. */
const serviceDomain = new RegExp(`^https?://([^/?#]*\\.)?${SERVICE_DOMAIN.replace(/\./g, '\\.')}(:\\d+)?([/?#]|$)`, 'i');

/**
 * msw handlers that answer every request for the service's hosts with the emulator
 * (`emulator.fetch`): pass them to msw's `setupServer`; handlers of your own placed before them
 * win. A request
 * to another host of the service's domain that `hosts` leaves out is never sent to the network:
 * it fails with an `EmulatorError` (`unrouted_host`) that names the host, which msw answers as a
 * 500 carrying that message. A fault the emulator injects as a dropped or reset connection is a
 * network error, as it would be over a socket.
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
  const serve = async ({ request }: { request: Request }): Promise<Response> => {
    try {
      return await emulator.fetch(request);
    } catch (error) {
      // A dropped or reset connection (fault injection) or an aborted request: a network error.
      if (error instanceof TypeError || (error instanceof Error && error.name === 'AbortError')) return HttpResponse.error();
      throw error;
    }
  };
  return [
    ...origins.map((origin) => http.all(`${origin}/*`, serve)),
    http.all(serviceDomain, ({ request }) => {
      const { origin } = new URL(request.url);
      throw new EmulatorError(
        'unrouted_host',
        `@x/emulator/msw: ${request.method} ${origin} is a host of the service that emulatorHandlers does not route (it routes ${origins.join(', ')}); the request was not sent. Add ${origin} to the hosts option.`,
      );
    }),
  ];
}

/**
 * Node-only entry of `@x/emulator`: `startEmulator`, the emulator as an HTTP(S) server on 127.0.0.1.
 *
 * @packageDocumentation
 * @module @x/emulator/node
 */
import { createAdaptorServer } from '@hono/node-server';
import { createServer as createHttpsServer } from 'node:https';
import type { Duplex } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { controlSettings } from './control/guard.js';
import { EmulatorError } from './errors.js';
import { createEmulator, type Emulator, type EmulatorEnv, type EmulatorOptions } from './emulator.js';
import { consoleLogger, report } from './logger.js';
import { errorFamily, type ErrorFamily } from './service/families.js';
import { UNRECORDED } from './service/respond.js';
import { clockSource } from './state/clock.js';
import { openStateFile, type StateFile } from './cli/state-file.js';

export interface ServerOptions extends EmulatorOptions {
  /** Default 0: a free port. */
  port?: number | undefined;
  /** Default 127.0.0.1. Any other address makes the control routes require a control token (generated unless given) and logs a warning. */
  hostname?: string | undefined;
  /** Serve HTTPS with this key and certificate (PEM). Default: plain HTTP. */
  tls?: { key: string | Uint8Array; cert: string | Uint8Array } | undefined;
  /** Serve an existing emulator instead of creating one. */
  emulator?: Emulator | undefined;
  /**
   * Require `Authorization: Bearer <token>` on the control routes (/_emulator/*). Default: none on
   * a loopback address (Host and Origin must then be loopback), a random one on any other address.
   */
  controlToken?: string | undefined;
  /**
   * Keep the state (transactions, outbox, callback attempts, journal, clock offset) in this file:
   * loaded at start, written atomically before each answer to a request that changed it (so a
   * kill loses nothing answered), and within 250 ms of changes that happen by themselves. A file
   * that is not a saved state is refused (EmulatorError `invalid_state`) and left as it is.
   *
   * @example
   * ```ts
   * import { startEmulator } from '@x/emulator/node';
   *
   * const server = await startEmulator({ state: '.x-emulator-state.json' });
   * await server.close(); // writes what is left
   * ```
   */
  state?: string | undefined;
}

export interface RunningEmulator {
  /** Base URL, e.g. http://127.0.0.1:4010 */
  url: string;
  port: number;
  emulator: Emulator;
  /** The token the control routes require, when they require one (see ServerOptions.controlToken). */
  controlToken?: string;
  close(): Promise<void>;
}

/**
 * Starts the emulator as an HTTP(S) server on 127.0.0.1.
 *
 * @example
 * ```ts
 * import { startEmulator } from '@x/emulator/node';
 *
 * const server = await startEmulator({ port: 0 }); // a free port on 127.0.0.1
 * log(server.url);                                  // point X_BASE_URL at it
 * await server.close();
 * ```
 */
export async function startEmulator(options: ServerOptions = {}): Promise<RunningEmulator> {
  const hostname = options.hostname ?? '127.0.0.1';
  const control = controlSettings({ hostname, ...(options.controlToken !== undefined ? { controlToken: options.controlToken } : {}) });
  const emulator = options.emulator ?? createEmulator(options);
  const logger = options.logger ?? consoleLogger;
  let saved: StateFile | undefined;
  try {
    saved = options.state !== undefined ? await openStateFile(options.state, emulator, (error) => report(logger, 'error', 'The state file could not be written; the next change tries again.', { error })) : undefined;
  } catch (error) {
    if (!options.emulator) emulator.close();
    throw error;
  }
  const unreadable = errorFamily('positive', clockSource(options.now));
  const server = createAdaptorServer({
    // The adapter builds a Request; it goes through the same app as `emulator.fetch`, with what
    // only the server knows (the raw request-target, the peer, the control settings) as bindings.
    fetch: async (request: Request, env: { incoming: IncomingMessage }) => {
      const state: EmulatorEnv = {
        // The raw request-target: the path the client signed, before URL parsing normalised it.
        requestTarget: env.incoming.url ?? '/',
        hostnames: control.hostnames,
      };
      const peerAddress = env.incoming.socket.remoteAddress;
      if (peerAddress !== undefined) state.peerAddress = peerAddress;
      if (control.controlToken !== undefined) state.controlToken = control.controlToken;
      let response = await emulator.app.fetch(request, state);
      // What this request changed is on disk before its answer leaves.
      if (saved?.dirty) {
        try {
          await saved.flush();
        } catch (error) {
          report(logger, 'error', `${request.method} ${new URL(request.url).pathname}: the state file could not be written; answered 500.`, { error });
          response = unreadable.fail(UNRECORDED, 'internal_error', { description: 'the emulator could not save its state (--state); the change is kept in memory and written with the next one' });
        }
      }
      // A reset fault: a TCP reset before the request was read (not processed), when the socket allows it.
      if (state.reset) resetConnection(env.incoming.socket);
      // A drop fault: the request was processed, the answer never arrives.
      else if (state.dropped) env.incoming.socket.destroy();
      return response;
    },
    // A request the adapter cannot turn into a Request (an invalid Host header or target): JSON too.
    errorHandler: (error: unknown) => unreadable.fail(UNRECORDED, 'bad_request', { description: `the request could not be read (${error instanceof Error ? error.message : 'unknown error'})` }),
    ...(options.tls ? { createServer: createHttpsServer, serverOptions: { key: options.tls.key, cert: options.tls.cert } } : {}),
  } as Parameters<typeof createAdaptorServer>[0]);
  // Malformed HTTP that Node's parser refuses before any handler runs: JSON too, where the socket can still be written.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => void answerMalformed(error, socket, unreadable));
  const port = options.port ?? 0;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      void saved?.close().catch(() => undefined);
      if (!options.emulator) emulator.close();
      reject(
        error.code === 'EADDRINUSE'
          ? new EmulatorError('address_in_use', `Port ${port} on ${hostname} is already in use (another emulator?): stop that process, or choose another port (port 0 picks a free one).`)
          : error,
      );
    });
    server.listen(port, hostname, () => resolve());
  });
  if (control.warning) report(logger, 'warn', control.warning, { hostname });
  const { port: bound } = server.address() as AddressInfo;
  const host = hostname.includes(':') ? `[${hostname}]` : hostname;
  return {
    url: `${options.tls ? 'https' : 'http'}://${host}:${bound}`,
    port: bound,
    emulator,
    ...(control.controlToken !== undefined ? { controlToken: control.controlToken } : {}),
    close: async () => {
      // Ends the event streams first, and lets their last bytes go out before the connections close.
      await saved?.close();
      emulator.close();
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise<void>((resolve) => {
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
        server.close(() => resolve());
      });
    },
  };
}

/** What Node's parser refused, by its error code, said without quoting the request (it may hold secrets). */
const MALFORMED: Record<string, string> = {
  HPE_UNEXPECTED_CONTENT_LENGTH: 'Content-Length and Transfer-Encoding together',
  HPE_INVALID_TRANSFER_ENCODING: 'Content-Length and Transfer-Encoding together, or an invalid Transfer-Encoding',
  HPE_INVALID_HEADER_TOKEN: 'a header line that is not "name: value"',
  HPE_INVALID_CONTENT_LENGTH: 'an invalid Content-Length',
  HPE_INVALID_METHOD: 'not an HTTP request line',
  HPE_INVALID_URL: 'an invalid request target',
  HPE_INVALID_VERSION: 'not an HTTP/1.x request line',
  HPE_INVALID_CONSTANT: 'not an HTTP request line',
};
const REASONS: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

/**
 * The answer to a request Node's HTTP parser refused (the server's 'clientError'): the service's
 * error shape in JSON (the positive family: the route is not known yet) with 400, 431 for headers
 * over Node's limit (16 KiB) or 408 for a request that took too long; then the connection closes.
 * A connection already reset, or one whose answer has begun, is only closed.
 */
async function answerMalformed(error: NodeJS.ErrnoException, socket: Duplex, family: ErrorFamily): Promise<void> {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const description =
    status === 431
      ? 'the request headers are larger than the server accepts (16 KiB)'
      : status === 408
        ? 'the request did not arrive in time'
        : `the request is not valid HTTP/1.1 (${MALFORMED[error.code ?? ''] ?? `refused by the HTTP parser: ${error.code ?? 'unknown error'}`})`;
  const response = family.fail(UNRECORDED, 'bad_request', { status, description });
  const body = new TextEncoder().encode(await response.text());
  const head = `HTTP/1.1 ${status} ${REASONS[status]}\r\nContent-Type: ${response.headers.get('content-type') ?? 'application/json'}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
  if (!socket.writable) return void socket.destroy();
  socket.end(Buffer.concat([Buffer.from(head, 'latin1'), body]));
}

/** Resets a connection (RST) where the socket supports it (plain TCP), else destroys it. */
function resetConnection(socket: Socket): void {
  try {
    socket.resetAndDestroy();
  } catch {
    socket.destroy();
  }
}

export { createEmulator };
export type { Emulator, EmulatorOptions };


import { createAdaptorServer } from '@hono/node-server';
import { nodeMac } from '@x/auth/node';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { IncomingMessage } from 'node:http';
import { createEmulator, type Emulator, type EmulatorEnv, type EmulatorOptions } from './emulator.js';

export interface ServerOptions extends EmulatorOptions {
  /** Default 0: a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  hostname?: string;
  /** Serve HTTPS with this key and certificate (PEM). Default: plain HTTP. */
  tls?: { key: string | Uint8Array; cert: string | Uint8Array };
  /** Serve an existing emulator instead of creating one. */
  emulator?: Emulator;
}

export interface RunningEmulator {
  /** Base URL, e.g. http://127.0.0.1:4010 */
  url: string;
  port: number;
  emulator: Emulator;
  close(): Promise<void>;
}

/** Starts the emulator as an HTTP(S) server on 127.0.0.1. */
export async function startEmulator(options: ServerOptions = {}): Promise<RunningEmulator> {
  const emulator = options.emulator ?? createEmulator({ mac: nodeMac, ...options });
  const hostname = options.hostname ?? '127.0.0.1';
  const server = createAdaptorServer({
    fetch: async (request: Request, env: { incoming: IncomingMessage }) => {
      // The raw request-target: the path the client signed, before URL parsing normalised it.
      const state: EmulatorEnv = { requestTarget: env.incoming.url ?? '/' };
      const response = await emulator.app.fetch(request, state);
      // A drop fault: the request was processed, the answer never arrives.
      if (state.dropped) env.incoming.socket.destroy();
      return response;
    },
    ...(options.tls ? { createServer: createHttpsServer, serverOptions: { key: options.tls.key, cert: options.tls.cert } } : {}),
  } as Parameters<typeof createAdaptorServer>[0]);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, hostname, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = hostname.includes(':') ? `[${hostname}]` : hostname;
  return {
    url: `${options.tls ? 'https' : 'http'}://${host}:${port}`,
    port,
    emulator,
    close: () =>
      new Promise<void>((resolve) => {
        emulator.close();
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

export { createEmulator };

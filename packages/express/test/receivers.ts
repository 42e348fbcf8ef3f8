// Express receivers for the shared exactly-once scenarios (testing/exactly-once.ts).
import { createMemoryReplayStore, type DeliveryStore } from '@x/auth';
import { createClient } from '@x/client';
import { DEFAULT_CUSTOMER } from '@x/emulator';
import { startEmulator } from '@x/emulator/node';
import { createSignedCallback } from '@x/webhooks';
import express5 from 'express';
import express4 from 'express4';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toolsFrom, type Action, type StartReceiver } from '../../../testing/exactly-once.js';
import { verifyCallbacks } from '../src/index.js';

export const credentials = DEFAULT_CUSTOMER;
export const tools = toolsFrom({ credentials, createSignedCallback, createClient, startEmulator });
type ExpressModule = typeof express5;
export const frameworks: Array<[string, ExpressModule, boolean]> = [
  ['express 5', express5, true],
  ['express 4', express4 as unknown as ExpressModule, false],
];

export async function listen(app: express5.Express): Promise<{ base: string; close(): Promise<void> }> {
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A callback route: verifyCallbacks, then the scripted handler (async in Express 5, next(err) in Express 4). */
export const expressReceiver =
  (express: ExpressModule, asyncHandlers: boolean): StartReceiver =>
  async (options, behave) => {
    const app = express();
    const answer = (res: express5.Response, next: express5.NextFunction, action: Action) => {
      if (action === 'ok') res.json({ ok: true });
      else if (action === 'fail') res.status(500).json({ error: 'database down' });
      else next(new Error('the handler failed'));
    };
    const verify = verifyCallbacks({ ...credentials, replayStore: options.replayStore as DeliveryStore, leaseMs: options.leaseMs });
    if (asyncHandlers) {
      app.post('/cb', verify, async (req, res) => {
        const action = await behave(req.callback!);
        if (action === 'throw') throw new Error('the handler failed');
        answer(res, () => {}, action);
      });
    } else {
      app.post('/cb', verify, (req, res, next) => {
        const action = behave(req.callback!); // a synchronous throw is Express's to catch
        if (typeof action === 'string') return answer(res, next, action);
        action.then((a) => answer(res, next, a), next);
      });
    }
    app.use((error: Error, _req: express5.Request, res: express5.Response, _next: express5.NextFunction) => void res.status(500).json({ error: error.message }));
    const { base, close } = await listen(app);
    return { url: `${base}/cb`, close };
  };

export const memoryStore = () => {
  let now = Date.now();
  const store = createMemoryReplayStore({ now: () => now });
  return { store, leaseMs: 30_000, outlive: (ms: number) => void (now += ms + 1) };
};

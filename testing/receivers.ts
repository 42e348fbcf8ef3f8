// Receivers for the exactly-once scenarios: an Express (4 or 5), Fastify or Hono server whose callback
// route verifies with the adapter under test, then runs the scripted handler. The framework and
// the adapter come in as arguments (this folder depends on no package), so a package's tests pass
// its sources and @x/redis's tests pass the built packages.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Action, StartReceiver } from './exactly-once.js';

export const credentialsOf = (c: { customerId: string; apiKey: string }) => ({ customerId: c.customerId, apiKey: c.apiKey });

/** Listens on 127.0.0.1 and a free port; `close` also ends kept-alive connections. */
export async function listen(app: { listen(port: number, host: string, ready: () => void): Server }): Promise<{ base: string; close(): Promise<void> }> {
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

/**
 * Express: verifyCallbacks, then the handler. Express 5 gets an async handler (a rejection is
 * Express's to catch); Express 4 passes async failures to next(err). A synchronous throw is
 * thrown inside the handler in both.
 */
export const expressReceiver =
  (express: any, verifyCallbacks: (options: any) => any, credentials: { customerId: string; apiKey: string }, asyncHandlers: boolean): StartReceiver =>
  async (options, behave) => {
    const app = express();
    const answer = (res: any, next: (error?: unknown) => void, action: Action) => {
      if (action === 'ok') res.json({ ok: true });
      else if (action === 'fail') res.status(500).json({ error: 'database down' });
      else next(new Error('the handler failed'));
    };
    const verify = verifyCallbacks({ ...credentialsOf(credentials), replayStore: options.replayStore, leaseMs: options.leaseMs });
    if (asyncHandlers) {
      app.post('/cb', verify, async (req: any, res: any) => {
        const action = await behave(req.callback);
        if (action === 'throw') throw new Error('the handler failed');
        answer(res, () => {}, action);
      });
    } else {
      app.post('/cb', verify, (req: any, res: any, next: (error?: unknown) => void) => {
        const action = behave(req.callback);
        if (typeof action === 'string') return answer(res, next, action);
        action.then((a) => answer(res, next, a), next);
      });
    }
    app.use((error: Error, _req: unknown, res: any, _next: unknown) => void res.status(500).json({ error: error.message }));
    const { base, close } = await listen(app);
    return { url: `${base}/cb`, close };
  };

/** Fastify: the plugin, then the handler (a synchronous throw is Fastify's to catch). */
export const fastifyReceiver =
  (Fastify: any, xVerification: any, credentials: { customerId: string; apiKey: string }): StartReceiver =>
  async (options, behave) => {
    const app = Fastify();
    await app.register(xVerification, { callbacks: { ...credentialsOf(credentials), replayStore: options.replayStore, leaseMs: options.leaseMs } });
    app.post('/cb', { config: { xCallback: true } }, (request: any, reply: any) => {
      const answer = (action: Action) => {
        if (action === 'ok') return reply.send({ ok: true });
        if (action === 'fail') return reply.code(500).send({ error: 'database down' });
        return reply.send(new Error('the handler failed'));
      };
      const action = behave(request.callback);
      if (typeof action === 'string') return answer(action);
      return action.then(answer, (error: Error) => reply.send(error));
    });
    const base: string = await app.listen({ port: 0, host: '127.0.0.1' });
    return { url: `${base}/cb`, close: () => app.close() };
  };

/**
 * Hono on @hono/node-server: the middleware on the route, then an async handler (a thrown error
 * is turned into a 500 by the app's onError, as most Hono apps do).
 */
export const honoReceiver =
  (Hono: any, serve: any, verifyCallbacks: (options: any) => any, credentials: { customerId: string; apiKey: string }): StartReceiver =>
  async (options, behave) => {
    const app = new Hono();
    app.post('/cb', verifyCallbacks({ ...credentialsOf(credentials), replayStore: options.replayStore, leaseMs: options.leaseMs }), async (c: any) => {
      const action = await behave(c.get('callback'));
      if (action === 'ok') return c.json({ ok: true });
      if (action === 'fail') return c.json({ error: 'database down' }, 500);
      throw new Error('the handler failed');
    });
    app.onError((error: Error, c: any) => c.json({ error: error.message }, 500));
    const { base, close } = await listen({ listen: (port, host, ready) => serve({ fetch: app.fetch, port, hostname: host }, ready) });
    return { url: `${base}/cb`, close };
  };

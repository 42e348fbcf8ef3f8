import { Hono } from 'hono';
import { untilAborted } from './abort.js';
import { createContext } from './context.js';
import { sendInbound } from './inbound.js';
import { inspectorRoutes } from './inspector/routes.js';
import { report } from './logger.js';
import { controlRoutes } from './routes/control.js';
import { PRODUCTS } from './routes/products.js';
import { buildProduct } from './routes/service.js';
import type { Emulator, EmulatorEnv, EmulatorOptions } from './types.js';

export { DEFAULT_CUSTOMER } from './customers.js';
export type { Customer, Emulator, EmulatorEnv, EmulatorOptions, OutboxMessage, InboundSms, InboundResult } from './types.js';

/**
 * The emulator: one context (state, clock, outbox, callbacks, faults, error families), one Hono
 * sub-app per product mounted with `app.route()`, the control routes, and the in-process fetch.
 */
export function createEmulator(options: EmulatorOptions = {}): Emulator {
  const ctx = createContext(options);
  const app = new Hono<{ Bindings: EmulatorEnv }>();
  for (const product of PRODUCTS) app.route(product.path, buildProduct(ctx, product));
  app.route('/', inspectorRoutes()); // the inspector page: GET / and /_emulator/inspector
  app.route('/_emulator', controlRoutes(ctx));
  // Outside every product (e.g. /v2/...): a 404 in the positive family.
  const outside = ctx.family('positive');
  app.notFound(() => outside.fail('not_found'));
  app.onError((error, c) => {
    report(ctx.logger, 'error', `${c.req.method} ${c.req.path} failed; answered 500.`, { method: c.req.method, path: c.req.path, error });
    return outside.fail('internal_error');
  });

  return {
    app,
    async fetch(input, init) {
      const request = input instanceof Request && init === undefined ? input : new Request(input, init);
      // A function call: no network can reach it, so the control routes need no Host/Origin/token check.
      const env: EmulatorEnv = { inProcess: true };
      // As fetch: an aborted signal rejects with its reason, before or while the request is served.
      const response = await untilAborted(Promise.resolve(app.fetch(request, env)), request.signal);
      if (env.dropped) throw new TypeError('fetch failed: the emulator dropped the connection (fault injection)');
      return response;
    },
    customers: ctx.customers,
    outbox: ctx.outbox,
    callbacks: ctx.callbacks,
    faults: ctx.faults,
    transactions: ctx.transactions,
    inbound: (message) => sendInbound(message, ctx.customers, ctx.callbacks, ctx.now()),
    idle: () => ctx.idle(),
    reset: () => ctx.reset(),
    close: () => ctx.close(),
  };
}

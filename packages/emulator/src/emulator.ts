import { Hono } from 'hono';
import { untilAborted } from './abort.js';
import { viewOf } from './state/callbacks.js';
import { createContext } from './state/context.js';
import { corsMiddleware } from './control/cors.js';
import { sendInbound } from './state/inbound.js';
import { heldOpen } from './state/keep-alive.js';
import { inspectorRoutes } from './inspector/routes.js';
import { report } from './logger.js';
import { journalMiddleware } from './control/record.js';
import { controlRoutes } from './control/routes.js';
import { PRODUCTS } from './routes/products.js';
import { buildProduct } from './routes/service.js';
import type { Emulator, EmulatorEnv, EmulatorOptions } from './types.js';
import { waitFor } from './control/wait.js';
import { CONTROL_PREFIX } from './paths.js';

export { DEFAULT_CUSTOMER } from './service/customers.js';
export type { Customer, Emulator, EmulatorEnv, EmulatorOptions, OutboxMessage, InboundSms, InboundResult } from './types.js';

/**
 * The emulator: one context (state, clock, outbox, callbacks, faults, error families, journal,
 * events), the journal and CORS middleware, one Hono sub-app per product mounted with
 * `app.route()`, the control routes, and the in-process fetch.
 *
 * @example
 * ```ts
 * import { createClient } from '@x/client';
 * import { createEmulator, DEFAULT_CUSTOMER } from '@x/emulator';
 *
 * const emulator = createEmulator();
 * const client = createClient({ ...DEFAULT_CUSTOMER, baseUrl: 'http://emulator.local', fetch: emulator.fetch });
 * await client.verify.sms({ phoneNumber: '15555551234' });
 * const sms = await emulator.waitFor({ outbox: { phoneNumber: '15555551234' } }); // sms.text has the code
 * ```
 */
export function createEmulator(options: EmulatorOptions = {}): Emulator {
  const ctx = createContext(options);
  const app = new Hono<{ Bindings: EmulatorEnv }>();
  // The CORS middleware wraps the journal's, so that a preflight is journaled too.
  app.use('*', journalMiddleware(ctx));
  app.use('*', corsMiddleware(ctx));
  for (const product of PRODUCTS) app.route(product.path, buildProduct(ctx, product));
  app.route('/', inspectorRoutes(ctx.controlToken)); // the inspector page: GET / and /_emulator/inspector
  app.route(CONTROL_PREFIX, controlRoutes(ctx));
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
      if (env.reset) throw new TypeError('fetch failed: the emulator reset the connection before reading the request (fault injection); the request was not processed');
      if (env.dropped) throw new TypeError('fetch failed: the emulator dropped the connection (fault injection)');
      return response;
    },
    customers: ctx.customers,
    outbox: ctx.outbox,
    callbacks: {
      get attempts() {
        return ctx.callbacks.attempts;
      },
      list: () => ctx.callbacks.attempts.map(viewOf),
      resend: (id) => ctx.callbacks.resend(id),
    },
    faults: ctx.faults,
    transactions: {
      get size() {
        return ctx.transactions.size;
      },
      list: (filter) => ctx.transactions.list(filter).map((tx) => ctx.transactions.view(tx)),
      get(referenceId) {
        const tx = ctx.transactions.find(referenceId);
        return tx && ctx.transactions.view(tx);
      },
      setStatus: (referenceId, code) => ctx.transactions.view(ctx.transactions.setStatus(referenceId, code)),
    },
    journal: {
      list: (filter) => ctx.journal.list(filter),
      clear: () => ctx.journal.clear(),
    },
    clock: {
      now: () => ctx.clock.now(),
      get offsetMs() {
        return ctx.clock.offsetMs;
      },
      advance: (ms) => ctx.advance(ms),
    },
    events: { subscribe: (listener) => ctx.events.subscribe(listener) },
    waitFor: ((query: unknown, waitOptions?: Parameters<typeof waitFor>[2]) => heldOpen(waitFor(ctx, query, waitOptions))) as Emulator['waitFor'],
    inbound: (message) => sendInbound(message, ctx.customers, ctx.callbacks, ctx.now()),
    idle: () => heldOpen(ctx.idle()),
    reset: () => ctx.reset(),
    close: () => ctx.close(),
  };
}

import type { Hono } from 'hono';
import { honoApp } from './hono-app.js';
import { untilAborted } from './abort.js';
import { markNotEmulated, SERVE, type Serve } from './in-process.js';
import { viewOf } from './state/callbacks.js';
import { createContext } from './state/context.js';
import { corsMiddleware } from './control/cors.js';
import { sendInbound } from './state/inbound.js';
import { heldOpen } from './state/keep-alive.js';
import { inspectorRoutes } from './inspector/routes.js';
import { journalMiddleware } from './control/record.js';
import { controlRoutes } from './control/routes.js';
import { openApiDocument } from './openapi/document.js';
import { PRODUCTS } from './routes/products.js';
import { buildProduct, internalError } from './routes/service.js';
import type { Customer, EmulatorEnv, EmulatorOptions } from './types.js';
import type { CallbackAttempt, CallbackView } from './state/callbacks.js';
import type { EmulatorEventListener } from './state/events.js';
import type { Faults } from './state/faults.js';
import type { JournalEntry, JournalFilter } from './state/journal.js';
import type { InboundResult, InboundSms } from './state/inbound.js';
import type { OutboxFilter, OutboxMessage } from './state/outbox.js';
import type { TransactionFilter, TransactionView } from './state/transactions.js';
import type { CallbackFilter, TransactionWait, WaitOptions } from './control/wait.js';
import { waitFor } from './control/wait.js';
import type { IdleOptions } from './state/idle.js';
import { restoreSnapshot, takeSnapshot, type EmulatorSnapshot } from './state/snapshot.js';
import { DEFAULT_NUMBER_RULES, type DefaultNumberRule, type NumberScript } from './state/scripts.js';
import { CONTROL_PREFIX } from './paths.js';

export { DEFAULT_CUSTOMER } from './service/customers.js';
export type { Customer, EmulatorEnv, EmulatorOptions } from './types.js';
export type { OutboxMessage, InboundSms, InboundResult, EmulatorSnapshot };

export interface Emulator {
  /** A web-standard fetch: pass it to a client as its `fetch`, in any runtime. Honours `signal`. */
  fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>;
  /** The Hono app (product modules + control routes), for mounting elsewhere. */
  readonly app: Hono<{ Bindings: EmulatorEnv }>;
  readonly customers: Map<string, Customer>;
  readonly outbox: {
    list(filter?: OutboxFilter): OutboxMessage[];
    latest(phoneNumber: string): OutboxMessage | undefined;
    clear(): void;
  };
  readonly callbacks: {
    /** Every attempt as sent, signature included (in-process only; the control routes redact it). */
    readonly attempts: readonly CallbackAttempt[];
    /** The attempts as the control routes show them: signatures cut to six characters, the payload parsed, the body's SHA-256. */
    list(): CallbackView[];
    /** Sends an attempt's exact signed body and headers again to its URL (one new attempt, no retries); resolves with it when the receiver answered. Rejects with an EmulatorError (`unknown_callback`). */
    resend(id: number): Promise<CallbackAttempt>;
  };
  readonly faults: Faults;
  /**
   * Number scripts: per number (or prefix), what each channel does next, steps taken in order;
   * numbers without a step left for a channel follow `defaults`, the eight test suffixes.
   * `add`/`set` check every field first (a ShapeError, `invalid_script`, names the path).
   *
   * @example
   * ```ts
   * import { createEmulator } from '@x/emulator';
   *
   * const emulator = createEmulator();
   * // This number's SMS fails, then its call is answered after 2 s.
   * emulator.numbers.add({ number: '15555550100', steps: [{ sms: 'undeliverable' }, { call: 'answered', delayMs: 2_000 }] });
   * ```
   */
  readonly numbers: {
    add(script: NumberScript): void;
    set(scripts: NumberScript[]): void;
    /** The scripts with the steps they have left. */
    list(): NumberScript[];
    clear(): void;
    readonly defaults: readonly DefaultNumberRule[];
  };
  readonly transactions: {
    readonly size: number;
    /** SMS, Verify and Voice transactions of every account, oldest first. */
    list(filter?: TransactionFilter): TransactionView[];
    get(referenceId: string): TransactionView | undefined;
    /**
     * Gives a transaction its final status now and sends its callback when a URL is known. Throws
     * an EmulatorError: `unknown_transaction`, or `invalid_status` listing the codes of its kind.
     */
    setStatus(referenceId: string, code: number): TransactionView;
  };
  /** Every request answered (the control routes' reads excepted), newest last; bounded by `journalSize`. */
  readonly journal: {
    list(filter?: JournalFilter): JournalEntry[];
    clear(): void;
  };
  /**
   * The emulator's clock. `advance(ms)` moves it forward: deliveries settle, codes and
   * verifications expire, fallbacks and callback retries come due; it resolves with the new time
   * once the callback attempts that started have answered. Throws an EmulatorError (`invalid_advance`).
   */
  readonly clock: {
    now(): number;
    readonly offsetMs: number;
    advance(ms: number): Promise<number>;
  };
  /** What happens, as it happens: `subscribe(listener)` returns the function that stops it. */
  readonly events: { subscribe(listener: EmulatorEventListener): () => void };
  /**
   * Resolves with the first match of a query, now or when it arrives (no sleeps in tests); rejects
   * with an EmulatorError (`wait_timeout`) after `timeoutMs` (default 5 000), saying what it saw.
   * `await emulator.waitFor({ outbox: { phoneNumber: '+1 555 555 1234' } })`
   */
  waitFor(query: { outbox: OutboxFilter }, options?: WaitOptions): Promise<OutboxMessage>;
  waitFor(query: { journal: JournalFilter }, options?: WaitOptions): Promise<JournalEntry>;
  waitFor(query: { callback: CallbackFilter }, options?: WaitOptions): Promise<CallbackAttempt>;
  waitFor(query: { transaction: TransactionWait }, options?: WaitOptions): Promise<TransactionView>;
  /** A function of your own: resolves with its first value that is not undefined, null or false (checked at every event and every 25 ms). */
  waitFor<T>(predicate: () => T | undefined | null | false, options?: WaitOptions): Promise<T>;
  /**
   * Sends an inbound SMS (MO): a signed `mo_sms` callback to the customer's callback URL, as the
   * service does when an end user texts your number. Delivery (with retries) runs in the
   * background; `await emulator.idle()` waits for it. Throws an `EmulatorError` ('invalid_inbound')
   * naming the field for bad input, or when no callback URL is known.
   */
  inbound(message: InboundSms): InboundResult;
  /**
   * Runs what is due by the clock (an injected `now` moved forward), then resolves when scheduled
   * deliveries, state changes and their callbacks are done. Its limits run on real time, even under
   * fake timers: `timeoutMs` bounds the whole wait; and when the clock stands still, nothing is in
   * flight and the emulator's timers do not run (fake timers hold them), it rejects after about a
   * second with an EmulatorError (`wait_timeout`) saying what waits for which time, rather than
   * hanging: advance the fake timers or the emulator's clock first.
   */
  idle(options?: IdleOptions): Promise<void>;
  /**
   * The state as one JSON-ready document: transactions, outbox, callback attempts (signatures cut),
   * journal and the clock's offset, the newest of each up to SNAPSHOT_LIMITS. `GET /_emulator/snapshot`.
   *
   * @example
   * ```ts
   * import { createEmulator } from '@x/emulator';
   *
   * const emulator = createEmulator();
   * const saved = JSON.stringify(emulator.snapshot());
   * // ... later, or in another emulator:
   * createEmulator().restore(JSON.parse(saved));
   * ```
   */
  snapshot(): EmulatorSnapshot;
  /**
   * Replaces the state with a saved one (`snapshot()`, a `--state` file), checked field by field
   * first: a bad one throws a ShapeError (`invalid_state`) whose `field` is the path at fault, and
   * changes nothing. Fault rules and number scripts are cleared; transactions in progress settle at their time. `PUT /_emulator/snapshot`.
   */
  restore(snapshot: unknown): void;
  /** Forgets transactions, outbox, callbacks, faults, number scripts and nonces. */
  reset(): void;
  /** Stops timers and callback retries. */
  close(): void;
}

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
  const app = honoApp<{ Bindings: EmulatorEnv }>();
  // The CORS middleware wraps the journal's, so that a preflight is journaled too.
  app.use('*', journalMiddleware(ctx));
  app.use('*', corsMiddleware(ctx));
  for (const product of PRODUCTS) app.route(product.path, buildProduct(ctx, product));
  app.route('/', inspectorRoutes(ctx.controlToken)); // the inspector page: GET / and /_emulator/inspector
  app.route(CONTROL_PREFIX, controlRoutes(ctx, openApiDocument));
  // Outside every product (e.g. /v2/...): a 404 in the positive family.
  const outside = ctx.family('positive');
  app.notFound((c) => {
    markNotEmulated(c);
    return outside.fail(c, 'not_found');
  });
  app.onError((error, c) => internalError(ctx, outside, error, c));

  const serve = async (request: Request, env: EmulatorEnv): Promise<Response> => {
    // As fetch: an aborted signal rejects with its reason, before or while the request is served.
    const response = await untilAborted(Promise.resolve(app.fetch(request, env)), request.signal);
    if (env.reset) throw new TypeError('fetch failed: the emulator reset the connection before reading the request (fault injection); the request was not processed');
    if (env.dropped) throw new TypeError('fetch failed: the emulator dropped the connection (fault injection)');
    return response;
  };

  const emulator: Emulator & { [SERVE]: Serve } = {
    app,
    async fetch(input, init) {
      const request = input instanceof Request && init === undefined ? input : new Request(input, init);
      // A function call: no network can reach it, so the control routes need no Host/Origin/token check.
      return serve(request, { inProcess: true });
    },
    async [SERVE](request) {
      const env: EmulatorEnv = { inProcess: true };
      const response = await serve(request, env);
      return { response, notEmulated: env.notEmulated === true };
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
    numbers: {
      add: (script) => ctx.scripts.add(script),
      set: (scripts) => ctx.scripts.set(scripts),
      list: () => ctx.scripts.list(),
      clear: () => ctx.scripts.clear(),
      defaults: DEFAULT_NUMBER_RULES,
    },
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
    idle: (idleOptions) => heldOpen(ctx.idle(idleOptions)),
    snapshot: () => takeSnapshot(ctx),
    restore: (snapshot) => void restoreSnapshot(ctx, snapshot),
    reset: () => ctx.reset(),
    close: () => ctx.close(),
  };
  return emulator;
}

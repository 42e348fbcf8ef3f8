import { AuthError, createKeyCache, createMemoryReplayStore, type VerifyOptions } from '@x/auth';
import { decodeCredentials } from '@x/auth/protocol';
import { CallbackSender, viewOf } from './callbacks.js';
import { Clock, clockSource } from './clock.js';
import { DEFAULT_CUSTOMER } from '../service/customers.js';
import { EmulatorError } from '../errors.js';
import { EventHub } from './events.js';
import { idle, type IdleOptions } from './idle.js';
import { errorFamily, type ErrorFamily, type FamilyName } from '../service/families.js';
import { Faults } from './faults.js';
import { Journal, JOURNAL_DEFAULT_SIZE, JOURNAL_MAX_SIZE } from './journal.js';
import { consoleLogger, report, type Logger } from '../logger.js';
import { Outbox } from './outbox.js';
import { NumberScripts } from './scripts.js';
import { Scheduler, type Scheduled } from './scheduler.js';
import { statusOf, type StatusBody } from '../service/status.js';
import { TransactionStore } from './store.js';
import { Transactions } from './transactions.js';
import type { Customer, EmulatorOptions } from '../types.js';

/** The options every module reads, with their defaults applied. */
export interface Settings {
  deliveryDelayMs: number;
  callDelayMs: number;
  verifyExpiryMs: number;
  verifyMaxAttempts: number;
  maxBodyBytes: number;
  /** Most transactions kept (`maxTransactions`); other per-transaction records are capped by it too. */
  maxTransactions: number;
  /** Verify API: code validity from each send (restarts at a fallback), attempts, longest verification. */
  verifyApi: { codeValidityMs: number; maxAttempts: number; maxDurationMs: number };
}

/** Products that may have accounts of their own (the service gives Intelligence its own credentials). */
export type AccountSet = 'rest' | 'intelligence' | 'verifyApi';

/**
 * What a product module receives: the state and services of one emulator. A module keeps its own
 * extra state in its `routes` closure and registers how to forget it with `onReset`.
 */
export interface EmulatorContext {
  readonly settings: Readonly<Settings>;
  /** The emulator's clock: `options.now` (default Date.now, read at each call) plus what `advance` added. */
  readonly now: () => number;
  readonly clock: Clock;
  /** Moves the clock forward, runs what became due (deliveries, fallbacks, deadlines, callback retries) and waits for the callback attempts that started. */
  advance(ms: number): Promise<number>;
  /** Every request answered (bounded). */
  readonly journal: Journal;
  /** What happens, as it happens (journal, outbox, callbacks, transactions, faults, clock, reset). */
  readonly events: EventHub;
  /** Answer the service routes to web pages of any origin (`options.cors`). */
  readonly cors: boolean;
  /** Runs at `close()` (streams of events end); returns the function that forgets the hook. */
  onClose(hook: () => void): () => void;
  /** The accounts, by customer id (the map `emulator.customers` exposes: changes apply at once). */
  readonly customers: Map<string, Customer>;
  /** The accounts a product accepts: its own when configured (`options.products`), else `customers`. */
  accounts(set: AccountSet): Map<string, Customer>;
  /** How requests to a product are verified (its accounts). */
  authFor(set: AccountSet): VerifyOptions;
  /**
   * Runs `task` at a time of the clock. `emulator.idle()` runs what is due by the clock and waits
   * for the other tasks, except `background` ones (fallbacks, deadlines), which only run when due.
   */
  schedule(at: number, task: () => void, options?: { background?: boolean }): Scheduled;
  /** Create, find and settle transactions; the callback at the final status is sent for you. */
  readonly transactions: Transactions;
  /** Record what reached the phone. */
  readonly outbox: Outbox;
  /** Signed callbacks with retries (for callbacks beyond a transaction's final status). */
  readonly callbacks: CallbackSender;
  readonly faults: Faults;
  /** Number scripts: what each channel of a number does next (before the default rules). */
  readonly scripts: NumberScripts;
  readonly logger: Logger;
  /** The error-body builder of a family. */
  family(name: FamilyName): ErrorFamily;
  /** A `status` object as the service prints it. Default time: now. */
  status(code: number, at?: number): StatusBody;
  /** `options.controlToken`: required on the control routes when set. */
  readonly controlToken?: string | undefined;
  /** Runs at `emulator.reset()`. */
  onReset(hook: () => void): void;
  /** Runs what is due, waits for scheduled work and the callbacks in flight (time limits on real time). */
  idle(options?: IdleOptions): Promise<void>;
  /** Forgets everything: transactions, outbox, callback records, faults, nonces, module state, scheduled work. */
  reset(): void;
  /** Stops timers and callback retries. */
  close(): void;
}

/** Accounts as the emulator will use them: each key must decode (the reason names the customer, never the key). */
function checkCustomers(list: Customer[], where: string): Customer[] {
  if (!Array.isArray(list)) throw new EmulatorError('invalid_option', `${where} must be an array of { customerId, apiKey }.`);
  list.forEach((customer, i) => {
    try {
      decodeCredentials(customer);
    } catch (error) {
      if (!(error instanceof AuthError)) throw error;
      const id = typeof customer?.customerId === 'string' ? ` (${JSON.stringify(customer.customerId.slice(0, 64))})` : '';
      throw new EmulatorError('invalid_option', `${where}[${i}]${id}: ${error.message}`);
    }
  });
  return list;
}

/** Checks a control token option: 1 to 256 visible ASCII characters. */
export function checkControlToken(controlToken: unknown): void {
  if (controlToken !== undefined && (typeof controlToken !== 'string' || !/^[\x21-\x7e]{1,256}$/.test(controlToken))) {
    throw new EmulatorError('invalid_option', 'controlToken must be 1 to 256 visible ASCII characters without spaces (it travels in "Authorization: Bearer <token>").');
  }
}

export function createContext(options: EmulatorOptions): EmulatorContext {
  const base = clockSource(options.now);
  const clock = new Clock(base);
  const now = clock.now;
  const logger = options.logger ?? consoleLogger;
  const journalSize = options.journalSize ?? JOURNAL_DEFAULT_SIZE;
  if (!Number.isInteger(journalSize) || journalSize < 0 || journalSize > JOURNAL_MAX_SIZE) {
    throw new EmulatorError('invalid_option', `journalSize must be a whole number from 0 (keep none) to ${JOURNAL_MAX_SIZE}; got ${String(journalSize)}.`);
  }
  if (options.random !== undefined && typeof options.random !== 'function') throw new EmulatorError('invalid_option', 'random must be a function returning numbers in [0, 1), like Math.random.');
  const events = new EventHub((error) => report(logger, 'error', 'An event listener (emulator.events.subscribe) threw; the event went on to the others.', { error }));
  const maxTransactions = options.maxTransactions ?? 200_000;
  if (!Number.isInteger(maxTransactions) || maxTransactions < 1) throw new EmulatorError('invalid_option', `maxTransactions must be a whole number >= 1; got ${String(maxTransactions)}.`);
  const deliveryDelayMs = options.deliveryDelayMs ?? 1_000;
  const settings: Settings = {
    deliveryDelayMs,
    callDelayMs: options.callDelayMs ?? deliveryDelayMs,
    verifyExpiryMs: options.verify?.expiryMs ?? 10 * 60_000,
    verifyMaxAttempts: options.verify?.maxAttempts ?? 5,
    maxBodyBytes: options.maxBodyBytes ?? 64 * 1024,
    maxTransactions,
    verifyApi: {
      codeValidityMs: options.verifyApi?.codeValidityMs ?? 300_000,
      maxAttempts: options.verifyApi?.maxAttempts ?? 3,
      maxDurationMs: options.verifyApi?.maxDurationMs ?? 300_000,
    },
  };
  const customers = new Map(checkCustomers(options.customers ?? [DEFAULT_CUSTOMER], 'customers').map((c) => [c.customerId, c]));
  const own = (list: Customer[] | undefined, where: string) => (list ? new Map(checkCustomers(list, where).map((c) => [c.customerId, c])) : customers);
  const accountSets: Record<AccountSet, Map<string, Customer>> = {
    rest: customers,
    intelligence: own(options.products?.intelligence?.customers, 'products.intelligence.customers'),
    verifyApi: own(options.products?.verifyApi?.customers, 'products.verifyApi.customers'),
  };
  const scheduler = new Scheduler(now);
  // Nonces and signed dates are checked against the real (or injected) clock: a client signs with its own clock, which `advance` does not move.
  const memoryReplay = createMemoryReplayStore({ now: base, maxEntries: 200_000 });
  const callbacks = new CallbackSender(
    options.callbacks ?? {},
    scheduler,
    (record) => events.emit('callback', () => viewOf(record)),
    (about) => faults.takeCallbacks(about),
  );
  const scripts: NumberScripts = new NumberScripts(() => events.emit('numbers', () => ({ numbers: scripts.list() })));
  if (options.numbers !== undefined) scripts.set(options.numbers);
  const store = new TransactionStore(options.retentionMs ?? 12 * 3_600_000, maxTransactions);
  let warnedEviction = false;
  const transactions: Transactions = new Transactions(
    store,
    callbacks,
    scheduler,
    now,
    { sms: settings.deliveryDelayMs, voice: settings.callDelayMs },
    (tx) => events.emit('transaction', () => transactions.view(tx)),
    () => {
      if (warnedEviction) return;
      warnedEviction = true;
      report(logger, 'warn', `maxTransactions (${store.capacity}) reached while transactions were still in progress: the oldest are dropped before their final status, so they get no callback and their reference ids answer as unknown. Raise maxTransactions (said once).`);
    },
    (phoneNumber, channel) => scripts.next(phoneNumber, channel),
  );
  const outbox = new Outbox(now, (message) => events.emit('outbox', () => message));
  const faults: Faults = new Faults({ ...(options.random ? { random: options.random } : {}), onChange: () => events.emit('faults', () => ({ faults: faults.list() })) });
  const journal = new Journal(journalSize);
  const closeHooks: Array<() => void> = [];
  const families = { positive: errorFamily('positive', now), negative: errorFamily('negative', now), verifyApi: errorFamily('verifyApi', now) };
  const hooks: Array<() => void> = [];
  // The emulator owns its key cache (verifyRequest keeps none): each customer's key is prepared once, at most 64 held.
  const keyCache = createKeyCache(options.mac ? { mac: options.mac } : {});
  const authOf = (accounts: Map<string, Customer>): VerifyOptions => ({
    credentials: (id) => accounts.get(id),
    now: base,
    replayStore: options.replayStore ?? memoryReplay,
    // The service accepts Basic. Said explicitly, so that verifyRequest's own default (moving to refusing Basic) never changes the emulator.
    allowBasic: options.allowBasic ?? true,
    ...(options.clockSkewMs !== undefined ? { clockSkewMs: options.clockSkewMs } : {}),
    ...(options.mac ? { mac: options.mac } : {}),
    keyCache,
  });
  const auths: Record<AccountSet, VerifyOptions> = { rest: authOf(accountSets.rest), intelligence: authOf(accountSets.intelligence), verifyApi: authOf(accountSets.verifyApi) };
  checkControlToken(options.controlToken);
  return {
    settings,
    now,
    clock,
    async advance(ms) {
      clock.move(ms);
      events.emit('clock', () => ({ now: clock.now(), offsetMs: clock.offsetMs }));
      scheduler.retime();
      await callbacks.settled();
      return clock.now();
    },
    journal,
    events,
    cors: options.cors === true,
    controlToken: options.controlToken,
    onClose(hook) {
      closeHooks.push(hook);
      return () => {
        const at = closeHooks.indexOf(hook);
        if (at >= 0) closeHooks.splice(at, 1);
      };
    },
    customers,
    accounts: (set) => accountSets[set],
    authFor: (set) => auths[set],
    schedule: (at, task, options) => scheduler.at(at, task, options),
    transactions,
    outbox,
    callbacks,
    faults,
    scripts,
    logger,
    family: (name) => families[name],
    status: (code, at) => statusOf(code, at ?? now()),
    onReset: (hook) => void hooks.push(hook),
    idle: (options) => idle(scheduler, callbacks, now, options),
    reset() {
      scheduler.close();
      transactions.clear();
      memoryReplay.clear();
      outbox.clear();
      callbacks.clear();
      faults.clear();
      scripts.clear();
      journal.clear();
      clock.reset();
      callbacks.reschedule();
      for (const hook of hooks) hook();
      events.emit('reset', () => ({}));
    },
    close() {
      scheduler.close();
      callbacks.close();
      for (const hook of closeHooks.splice(0)) hook();
    },
  };
}

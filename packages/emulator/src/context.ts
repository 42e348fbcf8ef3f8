import { createMemoryReplayStore, type VerifyOptions } from '@x/auth';
import { CallbackSender } from './callbacks.js';
import { DEFAULT_CUSTOMER } from './customers.js';
import { errorFamily, type ErrorFamily, type FamilyName } from './families.js';
import { Faults } from './faults.js';
import { consoleLogger, type Logger } from './logger.js';
import { Outbox } from './outbox.js';
import { Scheduler, type Scheduled } from './scheduler.js';
import { statusOf, type StatusBody } from './status.js';
import { TransactionStore } from './store.js';
import { Transactions } from './transactions.js';
import type { Customer, EmulatorOptions } from './types.js';

/** The options every module reads, with their defaults applied. */
export interface Settings {
  deliveryDelayMs: number;
  callDelayMs: number;
  verifyExpiryMs: number;
  verifyMaxAttempts: number;
  maxBodyBytes: number;
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
  /** The clock (`options.now`). */
  readonly now: () => number;
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
  readonly logger: Logger;
  /** How requests are verified (customers, clock, replay store, allowBasic, skew, HMAC provider). */
  readonly auth: VerifyOptions;
  /** The error-body builder of a family. */
  family(name: FamilyName): ErrorFamily;
  /** A `status` object as the service prints it. Default time: now. */
  status(code: number, at?: number): StatusBody;
  /** Runs at `emulator.reset()`. */
  onReset(hook: () => void): void;
  /** Runs what is due, waits for scheduled work and the callbacks in flight. */
  idle(): Promise<void>;
  /** Forgets everything: transactions, outbox, callback records, faults, nonces, module state, scheduled work. */
  reset(): void;
  /** Stops timers and callback retries. */
  close(): void;
}

export function createContext(options: EmulatorOptions): EmulatorContext {
  const now = options.now ?? Date.now;
  const deliveryDelayMs = options.deliveryDelayMs ?? 1_000;
  const settings: Settings = {
    deliveryDelayMs,
    callDelayMs: options.callDelayMs ?? deliveryDelayMs,
    verifyExpiryMs: options.verify?.expiryMs ?? 10 * 60_000,
    verifyMaxAttempts: options.verify?.maxAttempts ?? 5,
    maxBodyBytes: options.maxBodyBytes ?? 64 * 1024,
    verifyApi: {
      codeValidityMs: options.verifyApi?.codeValidityMs ?? 300_000,
      maxAttempts: options.verifyApi?.maxAttempts ?? 3,
      maxDurationMs: options.verifyApi?.maxDurationMs ?? 300_000,
    },
  };
  const customers = new Map((options.customers ?? [DEFAULT_CUSTOMER]).map((c) => [c.customerId, c]));
  const own = (list: Customer[] | undefined) => (list ? new Map(list.map((c) => [c.customerId, c])) : customers);
  const accountSets: Record<AccountSet, Map<string, Customer>> = {
    rest: customers,
    intelligence: own(options.products?.intelligence?.customers),
    verifyApi: own(options.products?.verifyApi?.customers),
  };
  const scheduler = new Scheduler(now);
  const memoryReplay = createMemoryReplayStore({ now, maxEntries: 200_000 });
  const callbacks = new CallbackSender(options.callbacks ?? {}, now);
  const store = new TransactionStore(options.retentionMs ?? 12 * 3_600_000, options.maxTransactions ?? 200_000);
  const transactions = new Transactions(store, callbacks, scheduler, now, { sms: settings.deliveryDelayMs, voice: settings.callDelayMs });
  const outbox = new Outbox(now);
  const faults = new Faults();
  const families = { positive: errorFamily('positive', now), negative: errorFamily('negative', now), verifyApi: errorFamily('verifyApi', now) };
  const hooks: Array<() => void> = [];
  const authOf = (accounts: Map<string, Customer>): VerifyOptions => ({
    credentials: (id) => accounts.get(id),
    now,
    replayStore: options.replayStore ?? memoryReplay,
    // The service accepts Basic. Said explicitly, so that verifyRequest's own default (moving to refusing Basic) never changes the emulator.
    allowBasic: options.allowBasic ?? true,
    ...(options.clockSkewMs !== undefined ? { clockSkewMs: options.clockSkewMs } : {}),
    ...(options.mac ? { mac: options.mac } : {}),
  });
  const auths: Record<AccountSet, VerifyOptions> = { rest: authOf(accountSets.rest), intelligence: authOf(accountSets.intelligence), verifyApi: authOf(accountSets.verifyApi) };
  const auth = auths.rest;
  return {
    settings,
    now,
    customers,
    accounts: (set) => accountSets[set],
    authFor: (set) => auths[set],
    schedule: (at, task, options) => scheduler.at(at, task, options),
    transactions,
    outbox,
    callbacks,
    faults,
    logger: options.logger ?? consoleLogger,
    auth,
    family: (name) => families[name],
    status: (code, at) => statusOf(code, at ?? now()),
    onReset: (hook) => void hooks.push(hook),
    async idle() {
      await scheduler.idle();
      await callbacks.idle();
    },
    reset() {
      scheduler.close();
      transactions.clear();
      memoryReplay.clear();
      outbox.clear();
      callbacks.attempts.length = 0;
      faults.clear();
      for (const hook of hooks) hook();
    },
    close() {
      scheduler.close();
      callbacks.close();
    },
  };
}

import { createMemoryReplayStore, type VerifyOptions } from '@x/auth';
import { CallbackSender } from './callbacks.js';
import { DEFAULT_CUSTOMER } from './customers.js';
import { errorFamily, type ErrorFamily, type FamilyName } from './families.js';
import { Faults } from './faults.js';
import { consoleLogger, type Logger } from './logger.js';
import { Outbox } from './outbox.js';
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
}

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
  /** Forgets everything: transactions, outbox, callback records, faults, nonces, module state. */
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
  };
  const customers = new Map((options.customers ?? [DEFAULT_CUSTOMER]).map((c) => [c.customerId, c]));
  const memoryReplay = createMemoryReplayStore({ now, maxEntries: 200_000 });
  const callbacks = new CallbackSender(options.callbacks ?? {}, now);
  const store = new TransactionStore(options.retentionMs ?? 12 * 3_600_000, options.maxTransactions ?? 200_000);
  const transactions = new Transactions(store, callbacks, now, { sms: settings.deliveryDelayMs, voice: settings.callDelayMs });
  const outbox = new Outbox(now);
  const faults = new Faults();
  const families = { positive: errorFamily('positive', now), negative: errorFamily('negative', now) };
  const hooks: Array<() => void> = [];
  const auth: VerifyOptions = {
    credentials: (id) => customers.get(id),
    now,
    replayStore: options.replayStore ?? memoryReplay,
    // The service accepts Basic. Said explicitly, so that verifyRequest's own default (moving to refusing Basic) never changes the emulator.
    allowBasic: options.allowBasic ?? true,
    ...(options.clockSkewMs !== undefined ? { clockSkewMs: options.clockSkewMs } : {}),
    ...(options.mac ? { mac: options.mac } : {}),
  };
  return {
    settings,
    now,
    customers,
    transactions,
    outbox,
    callbacks,
    faults,
    logger: options.logger ?? consoleLogger,
    auth,
    family: (name) => families[name],
    status: (code, at) => statusOf(code, at ?? now()),
    onReset: (hook) => void hooks.push(hook),
    reset() {
      transactions.clear();
      memoryReplay.clear();
      outbox.clear();
      callbacks.attempts.length = 0;
      faults.clear();
      for (const hook of hooks) hook();
    },
    close() {
      transactions.close();
      callbacks.close();
    },
  };
}

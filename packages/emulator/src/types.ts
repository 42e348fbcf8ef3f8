import type { Credentials, MacProvider, ReplayStore } from '@x/auth';
import type { Hono } from 'hono';
import type { CallbackAttempt, CallbackOptions, CallbackView } from './state/callbacks.js';
import type { EmulatorEventListener } from './control/events.js';
import type { Faults } from './control/faults.js';
import type { JournalEntry, JournalFilter } from './control/journal.js';
import type { Logger } from './logger.js';
import type { InboundResult, InboundSms } from './state/inbound.js';
import type { OutboxFilter, OutboxMessage } from './state/outbox.js';
import type { TransactionFilter, TransactionView } from './state/transactions.js';
import type { CallbackFilter, TransactionWait, WaitOptions } from './control/wait.js';

export interface Customer extends Credentials {
  /** Where callbacks go when a request gives no `callback_url`. */
  callbackUrl?: string | undefined;
}

export interface EmulatorOptions {
  /** Accounts the emulator accepts. Default: one, `DEFAULT_CUSTOMER`. */
  customers?: Customer[] | undefined;
  /** From 290 "Message in progress" to the final SMS status. Default 1 000 ms. */
  deliveryDelayMs?: number | undefined;
  /** From 103 "Call in progress" to the final call status. Default: deliveryDelayMs. */
  callDelayMs?: number | undefined;
  verify?: {
    /** How long a code can be checked. Default 10 minutes. */
    expiryMs?: number | undefined;
    /** Submissions allowed; the next one is MAX_ATTEMPTS_EXCEEDED even when right. Default 5. */
    maxAttempts?: number | undefined;
  } | undefined;
  /** Verify API (multi-channel verification) settings; the service sets them per account. */
  verifyApi?: {
    /** How long a code can be finalized, from each send (restarts at a fallback). Default 300 000 ms. */
    codeValidityMs?: number | undefined;
    /** Wrong codes allowed; the last one rejects the verification (3904). Default 3. */
    maxAttempts?: number | undefined;
    /** The longest a verification lasts, all methods together; then it fails. Default 300 000 ms. */
    maxDurationMs?: number | undefined;
  } | undefined;
  /**
   * Accounts of products with credentials of their own. Default: the products accept `customers`.
   * With `intelligence: { customers }`, POST /intelligence/phone accepts only those accounts, and
   * the other routes do not accept them (as the service, which issues Intelligence its own pair).
   */
  products?: {
    intelligence?: { customers: Customer[] } | undefined;
    verifyApi?: { customers: Customer[] } | undefined;
  } | undefined;
  callbacks?: CallbackOptions | undefined;
  /**
   * Clock: a Date or milliseconds, as the client's `now` takes (one test clock can serve both).
   * Called at every reading; by default `Date.now()` is looked up at every reading, so fake timers
   * installed after the emulator was created apply.
   */
  now?: (() => Date | number) | undefined;
  /** Larger bodies get 413. Default 64 KiB. */
  maxBodyBytes?: number | undefined;
  /** How long status can be read. Default 12 hours, as the service. */
  retentionMs?: number | undefined;
  /** Most transactions kept; the oldest go first. Default 200 000. */
  maxTransactions?: number | undefined;
  /** Accept Basic authentication. Default true (the service accepts both methods). */
  allowBasic?: boolean | undefined;
  /** Allowed clock difference of signed requests. Default 15 minutes. */
  clockSkewMs?: number | undefined;
  /** Where nonces are claimed. Default: in memory. Share one (e.g. @x/redis) between several emulators. */
  replayStore?: ReplayStore | undefined;
  /** HMAC implementation for verifying requests. Default pure; the Node server uses node:crypto. */
  mac?: MacProvider | undefined;
  /** Where errors in routes (answered 500 JSON) and warnings go. Default: the console. */
  logger?: Logger | undefined;
  /** How many requests the journal keeps (the oldest go first). Default 1 000; 0 keeps none; at most 100 000. */
  journalSize?: number | undefined;
  /** Random numbers in [0, 1) for the `probability` of fault rules. Default `Math.random`; pass a seeded one for reproducible runs. */
  random?: (() => number) | undefined;
  /**
   * Answer the service routes to web pages of any origin (CORS): preflights are answered, the
   * signing headers allowed, `Date` and `Retry-After` exposed. Default false: a preflight gets a
   * 403 that says to turn it on (`--cors`). The control routes never answer other origins.
   */
  cors?: boolean | undefined;
  /**
   * Require `Authorization: Bearer <token>` on the control routes (/_emulator/*) of `emulator.app`,
   * from any peer. Needed when the app is mounted in a server that does not tell the peer's address
   * (Node's, Deno's and Bun's do: there, only loopback peers are answered without it).
   */
  controlToken?: string | undefined;
}

/** What a server adapter tells the app about a request (Hono's env bindings). */
export interface EmulatorEnv {
  /** Set by the app when a drop or reset fault ate the answer: the adapter destroys the connection. */
  dropped?: boolean;
  /** Set with `dropped` by a reset fault (the request was not processed): the adapter resets the connection (TCP RST) when it can. */
  reset?: boolean;
  /**
   * The request-target as it arrived on the request line (Node: `IncomingMessage.url`), before any
   * URL parsing normalised it (dot segments, `%2e`). Signatures are verified over its path, as
   * `@x/auth` and the interface define the resource. Default: the path of `request.url`.
   */
  requestTarget?: string;
  /**
   * The request's headers as they arrived (Node: `IncomingMessage.rawHeaders`, name and value
   * alternating). When given, signatures are verified from them, the same values as
   * `request.headers` without building a Headers object for every request.
   */
  rawHeaders?: readonly string[];
  /** The request came through `emulator.fetch`, not a network: the control routes need no Host, Origin or token check. */
  inProcess?: boolean;
  /** Host names the control routes accept besides loopback (the name the server was started with). */
  hostnames?: readonly string[];
  /** When set, the control routes require `Authorization: Bearer <token>` (and then accept any Host and Origin). */
  controlToken?: string;
  /** The peer's IP address, as the server adapter saw it: the control routes answer only loopback peers (unless a token is set). */
  peerAddress?: string;
}

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
   * deliveries, state changes and their callbacks are done.
   */
  idle(): Promise<void>;
  /** Forgets transactions, outbox, callbacks, faults and nonces. */
  reset(): void;
  /** Stops timers and callback retries. */
  close(): void;
}

export type { OutboxMessage, OutboxFilter, InboundSms, InboundResult };

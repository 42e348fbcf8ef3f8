import type { Credentials, MacProvider, ReplayStore } from '@x/auth';
import type { CallbackDeliveryOptions } from './state/callbacks.js';
import type { Logger } from './logger.js';
import type { NumberScript } from './state/scripts.js';

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
  callbacks?: CallbackDeliveryOptions | undefined;
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
  /**
   * Number scripts: what each channel of a number (or of numbers with a prefix) does next, steps
   * taken in order (checked: a bad one throws a ShapeError, `invalid_script`, naming the field).
   * Numbers without a step left follow the test suffixes (`TEST_NUMBERS`).
   */
  numbers?: NumberScript[] | undefined;
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
  /** The request came through `emulator.fetch`, not a network: the control routes need no Host, Origin or token check. */
  inProcess?: boolean;
  /** Host names the control routes accept besides loopback (the name the server was started with). */
  hostnames?: readonly string[];
  /** When set, the control routes require `Authorization: Bearer <token>` (and then accept any Host and Origin). */
  controlToken?: string;
  /** The peer's IP address, as the server adapter saw it: the control routes answer only loopback peers (unless a token is set). */
  peerAddress?: string;
  /** Set when no route of the emulator serves the method and path (its 404): the msw bridge refuses such a request loudly. */
  notEmulated?: boolean;
}

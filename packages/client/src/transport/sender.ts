// The one interface between the client and the wire: send one attempt, say what happened. Two
// implementations: the portable one over any WHATWG fetch (exchange.ts), and on Node the default
// one straight on node:http(s) (src/node/send.ts), with no Request, Response or Headers objects
// and no AbortController; `createNodeFetch` is a fetch-shaped view of that same Node sender.
// Each enforces the timeout, the response cap and "no redirects" itself.
import type { Redirect } from './redirect.js';

/** One attempt, signed. */
export interface Outgoing {
  method: string;
  url: URL;
  /** Lower-case names; Authorization included. */
  headers: Record<string, string>;
  body: string | undefined;
  /** Per attempt, headers and body included; 0: none. */
  timeoutMs: number;
  maxResponseBytes: number;
  /** The caller's signal, if any. */
  signal: AbortSignal | undefined;
}

/** The status and headers of an answer, whatever carried it. */
export interface Answer {
  readonly status: number;
  /** One header (case-insensitive name), or null. */
  get(name: string): string | null;
  /** All headers as a WHATWG Headers (built on first call where the wire gave none). */
  headers(): Headers;
}

/** What happened to one attempt, as facts; `classify` turns them into results and errors. */
export type Exchange =
  | { kind: 'answer'; answer: Answer; text: string }
  | { kind: 'redirect'; answer: Answer; redirect: Redirect }
  | { kind: 'too_large'; answer: Answer | undefined; status: number }
  /** `sent: false` when the sender knows nothing was written (no connection in time); 'unknown' when left out. */
  | { kind: 'timeout'; sent?: false | 'unknown' }
  | { kind: 'aborted'; reason: unknown }
  | { kind: 'failed'; error: unknown };

/**
 * Sends one attempt. Resolves with what happened; rejects only with a ConfigurationError, when
 * the request cannot be made as configured and nothing was sent.
 */
export type Sender = (out: Outgoing) => Promise<Exchange>;

/**
 * The sender behind a fetch that is only a view of one (`createNodeFetch`): a client given such
 * a fetch sends through the sender itself. A registry symbol, so that separate bundles agree.
 */
export const SENDER = Symbol.for('@x/client.sender');

/**
 * What the runtime adds by default (`#platform`, chosen by export conditions): on Node the
 * node:http sender; elsewhere nothing (the global fetch). The HMAC is not here: @x/auth chooses it.
 */
export interface Platform {
  /** A sender with its own connection pool, for one client. */
  readonly createSender: (() => Sender) | undefined;
}

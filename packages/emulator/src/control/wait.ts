// emulator.waitFor: the first match of a query, now or when it happens, so tests need no sleeps.
import type { CallbackAttempt } from '../state/callbacks.js';
import type { EmulatorContext } from '../state/context.js';
import { EmulatorError } from '../errors.js';
import type { JournalFilter } from '../state/journal.js';
import { outboxPredicate, type OutboxFilter } from '../state/outbox.js';
import { phoneMatcher } from '../service/phone.js';
import { INTERMEDIATE } from '../service/codes.js';
import { checkTimeout, realDelay, realTimeSignal } from '../state/real-time.js';
import { maskCredentials } from '../service/url.js';

export interface CallbackFilter {
  referenceId?: string;
  /** Exact URL. */
  url?: string;
  /** true: an attempt the receiver accepted (2xx); false: one that failed. */
  ok?: boolean;
}

export interface TransactionWait {
  referenceId?: string;
  /** In any format the client accepts. */
  phoneNumber?: string;
  /** true: once its status is final. */
  final?: boolean;
  /** Once its status is this code. */
  code?: number;
}

export interface WaitOptions {
  /** Real milliseconds before it rejects, even under fake timers (`vi.useFakeTimers()`, `jest.useFakeTimers()`). Default 5 000; at most 3 600 000. */
  timeoutMs?: number;
  /** Stops waiting (rejects with the signal's reason). */
  signal?: AbortSignal;
}

export const WAIT_DEFAULT_TIMEOUT_MS = 5_000;
/** Besides every event, the condition is checked this often (state that moves with the clock alone). */
const POLL_MS = 25;

type Query = { outbox: OutboxFilter } | { journal: JournalFilter } | { callback: CallbackFilter } | { transaction: TransactionWait };

interface Compiled {
  check: () => unknown;
  /** What was asked and what there is, for the timeout's message. */
  explain: () => string;
}

const shown = (value: unknown) => JSON.stringify(value);

function compile(ctx: EmulatorContext, query: unknown): Compiled {
  if (typeof query === 'function') {
    return { check: query as () => unknown, explain: () => 'the predicate never returned a value (it returns undefined, null or false while the condition is not met)' };
  }
  if (typeof query !== 'object' || query === null || Object.keys(query).length !== 1) {
    throw new EmulatorError('invalid_option', 'waitFor takes a function, or one query: { outbox }, { journal }, { callback } or { transaction }, e.g. waitFor({ outbox: { phoneNumber: "+1 555 555 1234" } }).');
  }
  const q = query as Query;
  if ('outbox' in q) {
    const matches = outboxPredicate(q.outbox ?? {});
    return {
      check: () => ctx.outbox.list().find(matches),
      explain: () => {
        const numbers = [...new Set(ctx.outbox.list().map((m) => m.phoneNumber))];
        return `no outbox message matched ${shown(q.outbox)} (the outbox holds ${numbers.length ? `messages to ${numbers.slice(-5).join(', ')}` : 'no message'})`;
      },
    };
  }
  if ('journal' in q) {
    const filter = q.journal ?? {};
    return {
      check: () => ctx.journal.list({ ...filter, since: filter.since ?? 0, limit: 1 })[0],
      explain: () => `no journal entry matched ${shown(q.journal)} (${ctx.journal.length} entries)`,
    };
  }
  if ('callback' in q) {
    const f = q.callback ?? {};
    const matches = (a: CallbackAttempt) => (f.referenceId === undefined || a.referenceId.toUpperCase() === f.referenceId.toUpperCase()) && (f.url === undefined || a.url === f.url || a.url === maskCredentials(f.url)) && (f.ok === undefined || a.ok === f.ok);
    return {
      check: () => ctx.callbacks.attempts.find(matches),
      explain: () => `no callback attempt matched ${shown(q.callback)} (${ctx.callbacks.attempts.length} attempts recorded)`,
    };
  }
  if ('transaction' in q) {
    const f = q.transaction ?? {};
    const phone = f.phoneNumber ? phoneMatcher(f.phoneNumber) : undefined;
    const candidates = () => (f.referenceId !== undefined ? [ctx.transactions.find(f.referenceId)].filter((tx) => tx !== undefined) : ctx.transactions.list());
    return {
      check: () => {
        const tx = candidates().find(
          (t) => (!phone || phone(t.phoneNumber)) && (f.final === undefined || f.final === !INTERMEDIATE.has(t.status.code)) && (f.code === undefined || t.status.code === f.code),
        );
        return tx && ctx.transactions.view(tx);
      },
      explain: () => {
        const seen = candidates().filter((t) => !phone || phone(t.phoneNumber));
        return `no transaction matched ${shown(q.transaction)} (${seen.length ? `seen: ${seen.slice(-3).map((t) => `${t.referenceId} status ${t.status.code}`).join(', ')}` : 'none with that reference id or number'})`;
      },
    };
  }
  throw new EmulatorError('invalid_option', `waitFor knows the queries outbox, journal, callback and transaction; got ${shown(Object.keys(q)[0])}.`);
}

/** See `Emulator.waitFor`. */
export function waitFor(ctx: EmulatorContext, query: unknown, options: WaitOptions = {}): Promise<unknown> {
  let compiled: Compiled;
  try {
    compiled = compile(ctx, query);
    checkTimeout(options.timeoutMs);
  } catch (error) {
    return Promise.reject(error);
  }
  const timeoutMs = options.timeoutMs ?? WAIT_DEFAULT_TIMEOUT_MS;
  const { signal } = options;
  return new Promise((resolve, reject) => {
    let done = false;
    const cleanups: Array<() => void> = [];
    const finish = (settle: () => void) => {
      if (done) return;
      done = true;
      for (const cleanup of cleanups) cleanup();
      settle();
    };
    const attempt = () => {
      if (done) return;
      let value: unknown;
      try {
        value = compiled.check();
      } catch (error) {
        finish(() => reject(error));
        return;
      }
      if (value !== undefined && value !== null && value !== false) finish(() => resolve(value));
    };
    if (signal?.aborted) return reject(signal.reason);
    attempt();
    if (done) return;
    cleanups.push(ctx.events.subscribe(() => attempt()));
    // The poll and the time limit run on real time, even under fake timers (real-time.ts): a wait
    // that never matches rejects with what it saw instead of hanging the test.
    void (async () => {
      while (!done) {
        await realDelay(POLL_MS);
        attempt();
      }
    })();
    const deadline = realTimeSignal(timeoutMs);
    const onDeadline = () => finish(() => reject(new EmulatorError('wait_timeout', `waitFor timed out after ${timeoutMs} ms: ${compiled.explain()}.`)));
    deadline.addEventListener('abort', onDeadline, { once: true });
    cleanups.push(() => deadline.removeEventListener('abort', onDeadline));
    if (signal) {
      const onAbort = () => finish(() => reject(signal.reason));
      signal.addEventListener('abort', onAbort, { once: true });
      cleanups.push(() => signal.removeEventListener('abort', onAbort));
    }
  });
}

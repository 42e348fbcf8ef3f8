import { Ring } from './ring.js';
import type { Scheduled } from './scheduler.js';
import type { Customer } from '../types.js';
import { statusOf, type StatusBody } from '../service/status.js';

export type Kind = 'sms' | 'verify' | 'voice';

/** A transaction as a saved state holds it (`snapshot()`, a `--state` file): what it is and what happened to it. */
export interface SavedTransaction {
  kind: Kind;
  referenceId: string;
  customerId: string;
  phoneNumber: string;
  createdAt: number;
  /** When the final status is reached. */
  settlesAt: number;
  status: { code: number; updatedAt: number };
  /** Every status it has had, oldest first (the first is the initial 290 or 103). */
  history: Array<{ code: number; at: number }>;
  finalCode: number;
  externalId?: string;
  callbackUrl?: string;
  verify?: {
    /** `sms` (SMS Verify) or `call` (Voice Verify): the `sub_resource` of its answers and callbacks. */
    channel: 'sms' | 'call';
    code: string;
    state: 'UNKNOWN' | 'VALID' | 'INVALID' | 'EXPIRED' | 'MAX_ATTEMPTS_EXCEEDED';
    entered: string;
    attempts: number;
    /** Set by PUT /v1/verify/completion/{id}. */
    completedAt?: number;
  };
  /** SMS: the parts its text was sent in, when more than 1 (`message_parts_count`). */
  parts?: number;
  voice?: { callerId: string | null; callForwarding?: { action: 'FLAG' | 'BLOCK'; call_forward: 'FORWARDED' | 'NOT_FORWARDED' } };
}

/**
 * A transaction as the emulator keeps it. Its statuses are one array of numbers, and the account
 * and the timer are fields: per transaction kept, an object per status (with a boxed time in each)
 * and a WeakMap entry each for the account and the timer were seven objects more for the garbage
 * collector to visit, and about 150 bytes. `savedTransaction` gives the saved form.
 */
export interface Transaction extends Omit<SavedTransaction, 'status' | 'history'> {
  /** Every status it has had, oldest first, as pairs: the code, then the time it was given (`[290, t0, 200, t1]`). */
  statuses: number[];
  /** The account it was made for (its callbacks are signed with that account's key); undefined when restored for an account unknown now. */
  owner: Customer | undefined;
  /** The task that gives it its final status, until that task has run. */
  timer: Scheduled | undefined;
}

/** The code of its status now. */
export const statusCode = (tx: Transaction): number => tx.statuses[tx.statuses.length - 2]!;

/** When it was given its status now (epoch ms). */
export const statusTime = (tx: Transaction): number => tx.statuses[tx.statuses.length - 1]!;

/** Its status now, as answers and callbacks carry it (code, description, updated_on). */
export const statusNow = (tx: Transaction): StatusBody => statusOf(statusCode(tx), statusTime(tx));

/** Every status it has had, oldest first. */
export function historyOf(tx: Transaction): Array<{ code: number; at: number }> {
  const history: Array<{ code: number; at: number }> = [];
  for (let i = 0; i < tx.statuses.length; i += 2) history.push({ code: tx.statuses[i]!, at: tx.statuses[i + 1]! });
  return history;
}

/** Gives it a new status. `concat`, not `push`: an array of the exact length (`push` grows it by more than half again, plus 16). */
export function addStatus(tx: Transaction, code: number, at: number): void {
  tx.statuses = tx.statuses.concat(code, at);
}

/** The saved form of a transaction: its status and history as objects, without the account and the timer. */
export function savedTransaction(tx: Transaction): SavedTransaction {
  const { kind, referenceId, customerId, phoneNumber, createdAt, settlesAt, statuses: _statuses, finalCode, owner: _owner, timer: _timer, ...optional } = tx;
  return { kind, referenceId, customerId, phoneNumber, createdAt, settlesAt, status: { code: statusCode(tx), updatedAt: statusTime(tx) }, history: historyOf(tx), finalCode, ...optional };
}

/**
 * A saved transaction as the emulator keeps it. Its statuses are its history; a saved status that
 * is not the last of its history (a state written by hand) is added as the last, so that the
 * status it is restored with is the one saved.
 */
export function keptTransaction(saved: SavedTransaction, owner: Customer | undefined): Transaction {
  const { status, history, ...rest } = saved;
  const statuses = history.flatMap((h) => [h.code, h.at]);
  const last = history[history.length - 1];
  if (!last || last.code !== status.code || last.at !== status.updatedAt) statuses.push(status.code, status.updatedAt);
  return { ...rest, statuses, owner, timer: undefined };
}

/**
 * Transactions by reference id, bounded: those older than the retention (the service keeps
 * status for 12 hours) are dropped as new ones arrive, and beyond `max` the oldest goes. Both in
 * constant time: the ids are also kept in a ring in the order they were created, so the oldest is
 * always at hand (no walk over the map). `onEvict` hears of every transaction dropped.
 */
export class TransactionStore {
  private readonly items = new Map<string, Transaction>();
  private readonly order: Ring<Transaction>;
  /** Told about every transaction the store drops (expired or pushed out): its timers can go. */
  onEvict: (tx: Transaction) => void = () => undefined;

  constructor(
    private readonly retentionMs: number,
    max: number,
  ) {
    this.order = new Ring(max);
  }

  add(tx: Transaction, now: number): void {
    // The oldest first: expired ones go (each transaction once, so O(1) amortised), then the one a full ring pushes out.
    for (let old = this.order.peek(); old && old.createdAt + this.retentionMs <= now; old = this.order.peek()) this.drop(this.order.shift()!);
    this.items.set(tx.referenceId, tx);
    const out = this.order.push(tx);
    if (out) this.drop(out);
  }

  get(referenceId: string, customerId: string, now: number): Transaction | undefined {
    const tx = this.find(referenceId, now);
    return tx && tx.customerId === customerId ? tx : undefined;
  }

  /** A transaction of any customer (the control routes); undefined when unknown or expired. */
  find(referenceId: string, now: number): Transaction | undefined {
    const tx = this.items.get(referenceId.toUpperCase());
    if (!tx) return undefined;
    if (tx.createdAt + this.retentionMs <= now) {
      this.drop(tx);
      return undefined;
    }
    return tx;
  }

  /** Every transaction still kept, oldest first. */
  *values(now: number): IterableIterator<Transaction> {
    for (const tx of this.order.values()) if (this.items.get(tx.referenceId) === tx && tx.createdAt + this.retentionMs > now) yield tx;
  }

  get size(): number {
    return this.items.size;
  }

  /** At most this many are kept (`maxTransactions`). */
  get capacity(): number {
    return this.order.capacity;
  }

  clear(): void {
    this.items.clear();
    this.order.clear();
  }

  /** Forgets a transaction (once: the ring may still hold one that `find` found expired). */
  private drop(tx: Transaction): void {
    if (this.items.get(tx.referenceId) !== tx) return;
    this.items.delete(tx.referenceId);
    this.onEvict(tx);
  }
}

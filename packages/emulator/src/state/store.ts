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

/** A transaction as the emulator keeps it: its saved form, the account it was made for and its task. */
export interface Transaction extends SavedTransaction {
  /** The account it was made for (its callbacks are signed with that account's key); undefined when restored for an account unknown now. */
  owner: Customer | undefined;
  /** The task that gives it its final status, until that task has run. */
  timer: Scheduled | undefined;
}

/** Its status now, as answers and callbacks carry it (code, description, updated_on). */
export const statusNow = (tx: Transaction): StatusBody => statusOf(tx.status.code, tx.status.updatedAt);

/** Gives it a new status, added to its history. */
export function addStatus(tx: Transaction, code: number, at: number): void {
  tx.status = { code, updatedAt: at };
  tx.history.push({ code, at });
}

/** The saved form of a transaction, a copy (status and history included): without the account and the timer. */
export function savedTransaction(tx: Transaction): SavedTransaction {
  const { owner: _owner, timer: _timer, ...saved } = tx;
  return { ...saved, status: { ...tx.status }, history: tx.history.map((h) => ({ ...h })) };
}

/**
 * A saved transaction as the emulator keeps it, a copy. A saved status that is not the last of its
 * history (a state written by hand) is added as the last, so that the status it is restored with is
 * the one saved.
 */
export function keptTransaction(saved: SavedTransaction, owner: Customer | undefined): Transaction {
  const { status, history } = saved;
  const tx: Transaction = { ...saved, status: { ...status }, history: history.map((h) => ({ ...h })), owner, timer: undefined };
  const last = history[history.length - 1];
  if (!last || last.code !== status.code || last.at !== status.updatedAt) tx.history.push({ code: status.code, at: status.updatedAt });
  return tx;
}

/**
 * Transactions by reference id, in the order they were made (a Map keeps it), bounded: those older
 * than the retention (the service keeps status for 12 hours) are dropped as new ones arrive, and
 * beyond `capacity` the oldest goes. `onEvict` hears of every transaction dropped.
 */
export class TransactionStore {
  private readonly items = new Map<string, Transaction>();
  /** Told about every transaction the store drops (expired or pushed out): its timers can go. */
  onEvict: (tx: Transaction) => void = () => undefined;

  constructor(
    private readonly retentionMs: number,
    /** At most this many are kept (`maxTransactions`). */
    readonly capacity: number,
  ) {}

  add(tx: Transaction, now: number): void {
    // The oldest first: the expired ones go, then one more while the store is full.
    for (const old of this.items.values()) {
      if (old.createdAt + this.retentionMs > now && this.items.size < this.capacity) break;
      this.drop(old);
    }
    this.items.set(tx.referenceId, tx);
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
    for (const tx of this.items.values()) if (tx.createdAt + this.retentionMs > now) yield tx;
  }

  get size(): number {
    return this.items.size;
  }

  clear(): void {
    this.items.clear();
  }

  private drop(tx: Transaction): void {
    this.items.delete(tx.referenceId);
    this.onEvict(tx);
  }
}

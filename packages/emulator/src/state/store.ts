import { Ring } from './ring.js';

export type Kind = 'sms' | 'verify' | 'voice';

export interface Transaction {
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

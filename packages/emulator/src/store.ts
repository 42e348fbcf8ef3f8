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
  voice?: { callerId: string | null; callForwarding?: { action: 'FLAG' | 'BLOCK'; call_forward: 'FORWARDED' | 'NOT_FORWARDED' } };
}

/**
 * Transactions by reference id, bounded: those older than the retention (the service keeps
 * status for 12 hours) are dropped as new ones arrive, and beyond `max` the oldest go.
 */
export class TransactionStore {
  private readonly items = new Map<string, Transaction>();

  constructor(
    private readonly retentionMs: number,
    private readonly max: number,
  ) {}

  add(tx: Transaction, now: number): void {
    for (const [id, old] of this.items) {
      if (old.createdAt + this.retentionMs > now && this.items.size < this.max) break;
      this.items.delete(id);
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
      this.items.delete(tx.referenceId);
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
}

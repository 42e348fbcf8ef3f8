import type { CallbackSender } from './callbacks.js';
import type { Scheduler } from './scheduler.js';
import { INTERMEDIATE } from './codes.js';
import { randomHex } from './ids.js';
import { outcomeOf } from './numbers.js';
import { statusOf, timestamp } from './status.js';
import type { TransactionStore, Kind, Transaction } from './store.js';
import type { Customer } from './types.js';
import type { Params } from './validate.js';

export interface TransactionTiming {
  /** The first status. Default 103 for calls, 290 otherwise. */
  initial?: number;
  /** The final status. Default: the test number's outcome for the channel. */
  final?: number;
  /** From the first to the final status. Default: the call or delivery delay. */
  delayMs?: number;
}

/**
 * Transactions and their lives: created with an intermediate status, settled to the final one
 * when their time has come, a signed callback at that moment when a URL is known.
 */
export class Transactions {
  constructor(
    private readonly store: TransactionStore,
    private readonly callbacks: CallbackSender,
    private readonly scheduler: Scheduler,
    private readonly now: () => number,
    private readonly delays: { sms: number; voice: number },
  ) {}

  create(kind: Kind, customer: Customer, p: Params, timing: TransactionTiming = {}): Transaction {
    const at = this.now();
    const outcome = outcomeOf(p.phone_number!);
    const call = kind === 'voice';
    const tx: Transaction = {
      kind,
      referenceId: randomHex(16),
      customerId: customer.customerId,
      phoneNumber: p.phone_number!,
      createdAt: at,
      settlesAt: at + (timing.delayMs ?? (call ? this.delays.voice : this.delays.sms)),
      status: { code: timing.initial ?? (call ? 103 : 290), updatedAt: at },
      finalCode: timing.final ?? (call ? outcome.voice : outcome.sms),
    };
    if (p.external_id !== undefined) tx.externalId = p.external_id;
    if (p.callback_url !== undefined) tx.callbackUrl = p.callback_url;
    this.store.add(tx, at);
    this.schedule(tx, customer);
    return tx;
  }

  /** A transaction of this customer, settled; undefined when unknown, expired or another customer's. */
  get(referenceId: string, customerId: string): Transaction | undefined {
    const tx = this.store.get(referenceId, customerId, this.now());
    return tx && this.settle(tx);
  }

  /** The final status once its time has come; `due` when the delivery timer fired (timers can fire a ms early). */
  settle(tx: Transaction, due = false): Transaction {
    if (INTERMEDIATE.has(tx.status.code) && (due || this.now() >= tx.settlesAt)) tx.status = { code: tx.finalCode, updatedAt: tx.settlesAt };
    return tx;
  }

  get size(): number {
    return this.store.size;
  }

  clear(): void {
    this.store.clear();
  }

  /** Final status after the delay; a callback when the customer or the request gave a URL. */
  private schedule(tx: Transaction, customer: Customer) {
    const url = tx.callbackUrl ?? customer.callbackUrl;
    if (!url) return;
    this.scheduler.at(tx.settlesAt, () => this.callbacks.send(url, callbackPayload(this.settle(tx, true)), customer, tx.referenceId));
  }
}

/** The body of the callback sent at the final status. */
export function callbackPayload(tx: Transaction): Record<string, unknown> {
  const payload: Record<string, unknown> = {
    reference_id: tx.referenceId,
    status: statusOf(tx.status.code, tx.status.updatedAt),
    submit_timestamp: timestamp(tx.createdAt),
    errors: [],
    sub_resource: tx.kind === 'voice' ? 'voice' : tx.kind === 'verify' ? tx.verify!.channel : 'sms',
  };
  if (tx.externalId !== undefined) payload.external_id = tx.externalId;
  if (tx.kind === 'verify') payload.verify = { code_state: tx.verify!.state, code_entered: null };
  if (tx.kind === 'voice') payload.voice = { user_input: null, caller_id: tx.voice!.callerId };
  else if (tx.verify?.channel === 'call') payload.voice = { caller_id: tx.voice?.callerId ?? null };
  else payload.additional_info = { message_parts_count: 1 };
  return payload;
}

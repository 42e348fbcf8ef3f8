import type { CallbackSender } from './callbacks.js';
import type { CallbackAbout } from './faults.js';
import { stepStatus, type CallStep, type ScriptStep, type SmsStep } from './scripts.js';
import type { Scheduler } from './scheduler.js';
import { FINAL_STATUS, INTERMEDIATE, STATUS_TEXT } from '../service/codes.js';
import { EmulatorError } from '../errors.js';
import { randomHex } from '../service/ids.js';
import { outcomeOf } from '../service/numbers.js';
import { phoneMatcher } from '../service/phone.js';
import { maskCredentials } from '../service/url.js';
import { statusOf, timestamp, type StatusBody } from '../service/status.js';
import { addStatus, keptTransaction, statusNow, type TransactionStore, type Kind, type SavedTransaction, type Transaction } from './store.js';
import type { Customer } from '../types.js';
import type { Params } from '../service/validate.js';

export interface TransactionTiming {
  /** The first status. Default 103 for calls, 290 otherwise. */
  initial?: number;
  /** The final status. Default: the test number's outcome for the channel. */
  final?: number;
  /** From the first to the final status. Default: the call or delivery delay. */
  delayMs?: number;
  /** What a verification or a call keeps besides the status (set before anyone sees the transaction). */
  verify?: Transaction['verify'];
  voice?: Transaction['voice'];
  /** SMS: the parts its text is sent in (`message_parts_count`). Default 1. */
  parts?: number;
}

/** A transaction as the control routes, events and `emulator.transactions` show it. */
export interface TransactionView {
  referenceId: string;
  /** `sms` (Messaging), `verify` (SMS and Voice Verify), `voice`. */
  kind: Kind;
  phoneNumber: string;
  customerId: string;
  createdAt: number;
  status: StatusBody;
  /** Every status it had, oldest first. */
  history: Array<{ code: number; at: number }>;
  /** SMS and Voice Verify: the code's state, the checks made, and the channel (`sms` or `call`). */
  verify?: { state: string; attempts: number; channel: 'sms' | 'call' };
  /** The status will not change by itself any more. */
  final: boolean;
  /** Where its callback goes (the request's `callback_url`, else the account's). */
  callbackUrl?: string;
  externalId?: string;
}

export interface TransactionFilter {
  /** In any format the client accepts. */
  phoneNumber?: string;
  kind?: Kind;
  customerId?: string;
}

/** The final statuses a transaction of this kind can be given, by the channel that carries it. */
export function finalStatusesOf(tx: Pick<Transaction, 'kind' | 'verify'>): readonly number[] {
  const call = tx.kind === 'voice' || tx.verify?.channel === 'call';
  return call ? FINAL_STATUS.voice : FINAL_STATUS.sms;
}

/**
 * Transactions and their lives: created with an intermediate status, settled to the final one
 * when their time has come, a signed callback at that moment when a URL is known. The final
 * status can also be set at once (`setStatus`): the control route and the inspector's trigger.
 */
export class Transactions {
  constructor(
    private readonly store: TransactionStore,
    private readonly callbacks: CallbackSender,
    private readonly scheduler: Scheduler,
    private readonly now: () => number,
    private readonly delays: { sms: number; voice: number },
    /** Told when a transaction is created or its status changes. */
    private readonly onChange: (tx: Transaction) => void = () => undefined,
    /** Told when the store pushes out a transaction before its final status (its callback will not be sent). */
    private readonly onEvictedEarly: (tx: Transaction) => void = () => undefined,
    /** The number's next scripted step for a channel, if any (number scripts). */
    private readonly scripted: (phoneNumber: string, channel: 'sms' | 'call') => ScriptStep | undefined = () => undefined,
  ) {
    store.onEvict = (tx) => this.release(tx);
  }

  /** A transaction the store dropped: its timer is cancelled, its owner forgotten, nothing keeps it alive. */
  private release(tx: Transaction): void {
    const timer = tx.timer;
    tx.owner = undefined;
    if (!timer) return;
    tx.timer = undefined;
    timer.cancel();
    if (INTERMEDIATE.has(tx.status.code)) this.onEvictedEarly(tx);
  }

  create(kind: Kind, customer: Customer, p: Params, timing: TransactionTiming = {}): Transaction {
    const at = this.now();
    const outcome = outcomeOf(p.phone_number!);
    const call = kind === 'voice';
    const step = this.scripted(p.phone_number!, call || timing.verify?.channel === 'call' ? 'call' : 'sms') as SmsStep | CallStep | undefined;
    const initial = timing.initial ?? (call ? 103 : 290);
    const tx: Transaction = {
      kind,
      referenceId: randomHex(16),
      customerId: customer.customerId,
      phoneNumber: p.phone_number!,
      createdAt: at,
      settlesAt: at + (step?.delayMs ?? timing.delayMs ?? (call ? this.delays.voice : this.delays.sms)),
      status: { code: initial, updatedAt: at },
      history: [{ code: initial, at }],
      finalCode: step ? stepStatus(step) : (timing.final ?? (call ? outcome.voice : outcome.sms)),
      owner: customer,
      timer: undefined,
    };
    if (p.external_id !== undefined) tx.externalId = p.external_id;
    if (p.callback_url !== undefined) tx.callbackUrl = p.callback_url;
    if (timing.verify) tx.verify = timing.verify;
    if (timing.voice) tx.voice = timing.voice;
    if (timing.parts !== undefined && timing.parts !== 1) tx.parts = timing.parts;
    this.store.add(tx, at);
    this.schedule(tx, customer);
    this.onChange(tx);
    return tx;
  }

  /**
   * Puts back a transaction of a saved state. One still in progress settles at its time, with its
   * callback when its account (`owner`) is known.
   */
  restore(saved: SavedTransaction, owner: Customer | undefined): void {
    const tx = keptTransaction(saved, owner);
    this.store.add(tx, this.now());
    if (owner && INTERMEDIATE.has(tx.status.code)) this.schedule(tx, owner);
  }

  /** A transaction of this customer, settled; undefined when unknown, expired or another customer's. */
  get(referenceId: string, customerId: string): Transaction | undefined {
    const tx = this.store.get(referenceId, customerId, this.now());
    return tx && this.settle(tx);
  }

  /** A transaction of any customer, settled (the control routes). */
  find(referenceId: string): Transaction | undefined {
    const tx = this.store.find(referenceId, this.now());
    return tx && this.settle(tx);
  }

  /** Every transaction kept that passes the filter, settled, oldest first. */
  list(filter: TransactionFilter = {}): Transaction[] {
    const phone = filter.phoneNumber ? phoneMatcher(filter.phoneNumber) : undefined;
    const out: Transaction[] = [];
    for (const tx of this.store.values(this.now())) {
      if ((filter.kind && tx.kind !== filter.kind) || (filter.customerId && tx.customerId !== filter.customerId) || (phone && !phone(tx.phoneNumber))) continue;
      out.push(this.settle(tx));
    }
    return out;
  }

  /** The final status once its time has come; `due` when the delivery timer fired (timers can fire a ms early). */
  settle(tx: Transaction, due = false): Transaction {
    if (INTERMEDIATE.has(tx.status.code) && (due || this.now() >= tx.settlesAt)) {
      addStatus(tx, tx.finalCode, tx.settlesAt);
      this.onChange(tx);
    }
    return tx;
  }

  /**
   * Gives a transaction its final status now, whatever it had (the service never changes a final
   * status; the emulator lets you, to test late or corrected receipts), and sends the callback when
   * a URL is known. Throws an EmulatorError: `unknown_transaction`, or `invalid_status` naming the
   * codes this kind of transaction can end with.
   */
  setStatus(referenceId: string, code: unknown): Transaction {
    const tx = typeof referenceId === 'string' ? this.find(referenceId) : undefined;
    if (!tx) {
      throw new EmulatorError('unknown_transaction', `No transaction has reference id ${JSON.stringify(String(referenceId).slice(0, 40))}: GET /_emulator/transactions lists them (a reset forgets them; SMS, Verify and Voice transactions only).`);
    }
    const allowed = finalStatusesOf(tx);
    if (typeof code !== 'number' || !allowed.includes(code)) {
      const channel = allowed === FINAL_STATUS.voice ? 'a call' : 'an SMS';
      throw new EmulatorError(
        'invalid_status',
        `${typeof code === 'number' ? code : JSON.stringify(code)} is not a final status of ${channel} (this ${tx.kind} transaction); use one of ${allowed.map((c) => `${c} ${STATUS_TEXT[c]}`).join(', ')}.`,
      );
    }
    tx.timer?.cancel();
    tx.timer = undefined;
    const at = this.now();
    tx.finalCode = code;
    tx.settlesAt = Math.min(tx.settlesAt, at);
    addStatus(tx, code, at);
    this.onChange(tx);
    const customer = tx.owner;
    const url = tx.callbackUrl ?? customer?.callbackUrl;
    if (url && customer) this.callbacks.send(url, callbackPayload(tx), customer, tx.referenceId, aboutOf(tx));
    return tx;
  }

  /** The transaction as the control routes show it; `callbackUrl` is where its callback goes (the request's, else its account's). */
  view(tx: Transaction): TransactionView {
    const view: TransactionView = {
      referenceId: tx.referenceId,
      kind: tx.kind,
      phoneNumber: tx.phoneNumber,
      customerId: tx.customerId,
      createdAt: tx.createdAt,
      status: statusNow(tx),
      history: tx.history.map((h) => ({ ...h })),
      final: !INTERMEDIATE.has(tx.status.code),
    };
    if (tx.verify) view.verify = { state: tx.verify.state, attempts: tx.verify.attempts, channel: tx.verify.channel };
    const url = tx.callbackUrl ?? tx.owner?.callbackUrl;
    if (url !== undefined) view.callbackUrl = maskCredentials(url);
    if (tx.externalId !== undefined) view.externalId = tx.externalId;
    return view;
  }

  get size(): number {
    return this.store.size;
  }

  clear(): void {
    this.store.clear();
  }

  /**
   * The final status at its time: with a callback URL, a task `idle()` waits for, which sends the
   * callback; without, a background task that only settles it (so that watchers see the change).
   */
  private schedule(tx: Transaction, customer: Customer) {
    const url = tx.callbackUrl ?? customer.callbackUrl;
    const settle = () => {
      tx.timer = undefined;
      this.settle(tx, true);
      if (url) this.callbacks.send(url, callbackPayload(tx), customer, tx.referenceId, aboutOf(tx));
    };
    tx.timer = this.scheduler.at(tx.settlesAt, settle, { background: !url });
  }
}

/** What a transaction's callback is about, for callback fault rules: its product, its number, its first (intermediate) status. */
function aboutOf(tx: Transaction): CallbackAbout {
  const { code, at } = tx.history[0]!;
  return { product: tx.kind === 'sms' ? 'messaging' : tx.kind, phoneNumber: tx.phoneNumber, earlier: INTERMEDIATE.has(code) ? () => callbackPayload(tx, statusOf(code, at)) : undefined };
}

/** The body of the callback sent at the final status (or at `status`, an earlier one, for a callback fault). */
export function callbackPayload(tx: Transaction, status: StatusBody = statusNow(tx)): Record<string, unknown> {
  const payload: Record<string, unknown> = {
    reference_id: tx.referenceId,
    status,
    submit_timestamp: timestamp(tx.createdAt),
    errors: [],
    sub_resource: tx.kind === 'voice' ? 'voice' : tx.kind === 'verify' ? tx.verify!.channel : 'sms',
  };
  if (tx.externalId !== undefined) payload.external_id = tx.externalId;
  if (tx.kind === 'verify') payload.verify = { code_state: tx.verify!.state, code_entered: null };
  if (tx.kind === 'voice') payload.voice = { user_input: null, caller_id: tx.voice!.callerId };
  else if (tx.verify?.channel === 'call') payload.voice = { caller_id: tx.voice?.callerId ?? null };
  else payload.additional_info = { message_parts_count: tx.parts ?? 1 };
  return payload;
}

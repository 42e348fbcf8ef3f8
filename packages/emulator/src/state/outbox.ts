import { phoneMatcher } from '../service/phone.js';
import { Ring } from './ring.js';

/** Messages kept; beyond, the oldest goes (in constant time). */
export const OUTBOX_SIZE = 10_000;

/** What reached the "phone": every SMS and call, with its rendered text. */
export interface OutboxMessage {
  referenceId: string;
  customerId: string;
  /** `sms` and `voice`; the Verify API's other methods: whatsapp, viber, rcs, email. */
  channel: OutboxChannel;
  /** `verify`: SMS and Voice Verify; `verify_api`: the Verify API; `bulk_sms`: one recipient of a bulk request. */
  product: 'messaging' | 'verify' | 'voice' | 'bulk_sms' | 'verify_api';
  /** Where it went: the phone number, or the email address for the email method. */
  phoneNumber: string;
  /** Bulk SMS: the recipient's own id (`number:id`). */
  recipientId?: string;
  /** What reached the phone: the rendered text (the code substituted), or what the call said. */
  text: string;
  messageType?: string;
  senderId?: string;
  /** For verifications: the code that was sent. */
  code?: string;
  at: number;
}

export type OutboxChannel = 'sms' | 'voice' | 'whatsapp' | 'viber' | 'rcs' | 'email';

export interface OutboxFilter {
  /** In any format the client accepts: "+1 555 555 1234" finds 15555551234. */
  phoneNumber?: string;
  customerId?: string;
  channel?: OutboxChannel;
}

/** The last messages (at most OUTBOX_SIZE; the oldest goes first). */
export class Outbox {
  private readonly messages = new Ring<OutboxMessage>(OUTBOX_SIZE);

  constructor(
    private readonly now: () => number,
    /** Told about every message added. */
    private readonly onAdd: (message: OutboxMessage) => void = () => undefined,
  ) {}

  /** Keeps `message` itself, stamped with the time (callers hand over an object of their own: no copy per message). */
  add(message: Omit<OutboxMessage, 'at'>): void {
    const added = message as OutboxMessage;
    added.at = this.now();
    this.messages.push(added);
    this.onAdd(added);
  }

  list(filter: OutboxFilter = {}): OutboxMessage[] {
    const matches = outboxPredicate(filter);
    const out: OutboxMessage[] = [];
    for (const m of this.messages.values()) if (matches(m)) out.push(m);
    return out;
  }

  /** The newest message to this number, in any format the client accepts. */
  latest(phoneNumber: string): OutboxMessage | undefined {
    const matches = phoneMatcher(phoneNumber);
    for (const m of this.messages.newest()) if (matches(m.phoneNumber)) return m;
    return undefined;
  }

  clear(): void {
    this.messages.clear();
  }

  /** Puts back the messages of a saved state, oldest first (no events). */
  restore(messages: OutboxMessage[]): void {
    for (const message of messages) this.messages.push(message);
  }
}

/** Whether a message passes a filter (the outbox listing and `waitFor({ outbox })`). */
export function outboxPredicate(filter: OutboxFilter): (m: OutboxMessage) => boolean {
  const phone = filter.phoneNumber ? phoneMatcher(filter.phoneNumber) : undefined;
  return (m) => (!phone || phone(m.phoneNumber)) && (!filter.customerId || m.customerId === filter.customerId) && (!filter.channel || m.channel === filter.channel);
}

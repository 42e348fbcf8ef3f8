import { phoneMatcher } from './phone.js';

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

/** The last messages (at most 10 000; the oldest half goes when full). */
export class Outbox {
  private messages: OutboxMessage[] = [];

  constructor(
    private readonly now: () => number,
    /** Told about every message added. */
    private readonly onAdd: (message: OutboxMessage) => void = () => undefined,
  ) {}

  add(message: Omit<OutboxMessage, 'at'>): void {
    const added = { ...message, at: this.now() };
    this.messages.push(added);
    if (this.messages.length > 10_000) this.messages = this.messages.slice(-5_000);
    this.onAdd(added);
  }

  list(filter: OutboxFilter = {}): OutboxMessage[] {
    return this.messages.filter(outboxPredicate(filter));
  }

  /** The newest message to this number, in any format the client accepts. */
  latest(phoneNumber: string): OutboxMessage | undefined {
    const matches = phoneMatcher(phoneNumber);
    for (let i = this.messages.length - 1; i >= 0; i--) if (matches(this.messages[i]!.phoneNumber)) return this.messages[i];
    return undefined;
  }

  clear(): void {
    this.messages = [];
  }
}

/** Whether a message passes a filter (the outbox listing and `waitFor({ outbox })`). */
export function outboxPredicate(filter: OutboxFilter): (m: OutboxMessage) => boolean {
  const phone = filter.phoneNumber ? phoneMatcher(filter.phoneNumber) : undefined;
  return (m) => (!phone || phone(m.phoneNumber)) && (!filter.customerId || m.customerId === filter.customerId) && (!filter.channel || m.channel === filter.channel);
}

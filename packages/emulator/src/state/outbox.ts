import { analyzeMessage, type MessageEncoding, type NonGsmCharacter } from '@x/service/request';
import { phoneMatcher } from '../service/phone.js';

/** Messages kept; beyond, the oldest goes. */
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
  /** SMS only (`smsFacts`): GSM-7 or UCS-2. */
  encoding?: MessageEncoding;
  /** SMS only: GSM-7 septets or UCS-2 code units. */
  units?: number;
  /** SMS only: how many parts it was sent in (the `message_parts_count` of its status and callback). */
  parts?: number;
  /** SMS only: units per part (160 or 70 in one part, 153 or 67 once split). */
  unitsPerPart?: number;
  /** SMS only: the characters that forced UCS-2 with their UTF-16 index, the first NON_GSM_KEPT of them. */
  nonGsm?: NonGsmCharacter[];
  at: number;
}

/** The most characters that forced UCS-2 an outbox message keeps (the first ones; memory stays bounded). */
export const NON_GSM_KEPT = 20;

/** What an SMS text costs, for its outbox message: analyzeMessage's figures, the offending characters capped. */
export type SmsFacts = Required<Pick<OutboxMessage, 'encoding' | 'units' | 'parts' | 'unitsPerPart' | 'nonGsm'>>;

export function smsFacts(text: string): SmsFacts {
  const { encoding, units, parts, unitsPerPart, nonGsm } = analyzeMessage(text);
  return { encoding, units, parts, unitsPerPart, nonGsm: nonGsm.slice(0, NON_GSM_KEPT) };
}

export type OutboxChannel = 'sms' | 'voice' | 'whatsapp' | 'viber' | 'rcs' | 'email';
/** Every channel, once: the record's type makes the compiler refuse a channel left out or unknown. */
const CHANNELS: Record<OutboxChannel, true> = { sms: true, voice: true, whatsapp: true, viber: true, rcs: true, email: true };
export const OUTBOX_CHANNELS = Object.keys(CHANNELS) as readonly OutboxChannel[];

export interface OutboxFilter {
  /** In any format the client accepts: "+1 555 555 1234" finds 15555551234. */
  phoneNumber?: string;
  customerId?: string;
  channel?: OutboxChannel;
}

/** The last messages (at most OUTBOX_SIZE; the oldest goes first). */
export class Outbox {
  private messages: OutboxMessage[] = [];

  constructor(
    private readonly now: () => number,
    /** Told about every message added. */
    private readonly onAdd: (message: OutboxMessage) => void = () => undefined,
  ) {}

  /** Keeps a message, stamped with the time. */
  add(message: Omit<OutboxMessage, 'at'>): void {
    const added: OutboxMessage = { ...message, at: this.now() };
    this.keep(added);
    this.onAdd(added);
  }

  list(filter: OutboxFilter = {}): OutboxMessage[] {
    const matches = outboxPredicate(filter);
    return this.messages.filter(matches);
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

  /** Puts back the messages of a saved state, oldest first (no events). */
  restore(messages: OutboxMessage[]): void {
    for (const message of messages) this.keep(message);
  }

  private keep(message: OutboxMessage): void {
    this.messages.push(message);
    if (this.messages.length > OUTBOX_SIZE) this.messages.shift();
  }
}

/** Whether a message passes a filter (the outbox listing and `waitFor({ outbox })`). */
export function outboxPredicate(filter: OutboxFilter): (m: OutboxMessage) => boolean {
  const phone = filter.phoneNumber ? phoneMatcher(filter.phoneNumber) : undefined;
  return (m) => (!phone || phone(m.phoneNumber)) && (!filter.customerId || m.customerId === filter.customerId) && (!filter.channel || m.channel === filter.channel);
}

/** What reached the "phone": every SMS and call, with its rendered text. */
export interface OutboxMessage {
  referenceId: string;
  customerId: string;
  channel: 'sms' | 'voice';
  product: 'messaging' | 'verify' | 'voice';
  phoneNumber: string;
  /** What reached the phone: the rendered text (the code substituted), or what the call said. */
  text: string;
  messageType?: string;
  senderId?: string;
  /** For verifications: the code that was sent. */
  code?: string;
  at: number;
}

export interface OutboxFilter {
  phoneNumber?: string;
  customerId?: string;
  channel?: 'sms' | 'voice';
}

/** The last messages (at most 10 000; the oldest half goes when full). */
export class Outbox {
  private messages: OutboxMessage[] = [];

  constructor(private readonly now: () => number) {}

  add(message: Omit<OutboxMessage, 'at'>): void {
    this.messages.push({ ...message, at: this.now() });
    if (this.messages.length > 10_000) this.messages = this.messages.slice(-5_000);
  }

  list(filter: OutboxFilter = {}): OutboxMessage[] {
    return this.messages.filter(
      (m) => (!filter.phoneNumber || m.phoneNumber === filter.phoneNumber) && (!filter.customerId || m.customerId === filter.customerId) && (!filter.channel || m.channel === filter.channel),
    );
  }

  latest(phoneNumber: string): OutboxMessage | undefined {
    for (let i = this.messages.length - 1; i >= 0; i--) if (this.messages[i]!.phoneNumber === phoneNumber) return this.messages[i];
    return undefined;
  }

  clear(): void {
    this.messages = [];
  }
}

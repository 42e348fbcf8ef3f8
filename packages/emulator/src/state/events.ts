import type { CallbackView } from './callbacks.js';
import type { FaultRule } from './faults.js';
import type { NumberScript } from './scripts.js';
import type { JournalEntry } from './journal.js';
import type { OutboxMessage } from './outbox.js';
import type { TransactionView } from './transactions.js';

/** What the clock says: the emulator's time and how far it was moved ahead of the real (or injected) clock. */
export interface ClockView {
  now: number;
  offsetMs: number;
}

/**
 * Everything that happens in an emulator, as it happens: a request answered (`journal`), a message
 * reaching a phone (`outbox`), a callback attempt finished (`callback`, signature redacted), a
 * transaction created or changed (`transaction`), the fault rules changed (`faults`), the number
 * scripts changed (`numbers`: added, a step taken, cleared), the clock
 * moved (`clock`), everything forgotten (`reset`). The same events feed `GET /_emulator/events`.
 */
export type EmulatorEvent =
  | { type: 'journal'; data: JournalEntry }
  | { type: 'outbox'; data: OutboxMessage }
  | { type: 'callback'; data: CallbackView }
  | { type: 'transaction'; data: TransactionView }
  | { type: 'faults'; data: { faults: FaultRule[] } }
  | { type: 'numbers'; data: { numbers: NumberScript[] } }
  | { type: 'clock'; data: ClockView }
  | { type: 'reset'; data: Record<string, never> };

export type EmulatorEventType = EmulatorEvent['type'];
export type EmulatorEventListener = (event: EmulatorEvent) => void;

export const EVENT_TYPES: readonly EmulatorEventType[] = ['journal', 'outbox', 'callback', 'transaction', 'faults', 'numbers', 'clock', 'reset'];

/** Listeners of one emulator. A listener that throws is reported and never changes an answer. */
export class EventHub {
  private readonly listeners = new Set<EmulatorEventListener>();

  constructor(private readonly onListenerError: (error: unknown) => void) {}

  /** Calls `listener` with every event from now on; returns the function that stops it. */
  subscribe(listener: EmulatorEventListener): () => void {
    if (typeof listener !== 'function') throw new TypeError('events.subscribe takes a function: (event) => void.');
    const own = (event: EmulatorEvent) => listener(event);
    this.listeners.add(own);
    return () => void this.listeners.delete(own);
  }

  /** Sends an event; `data` is built only when someone listens. */
  emit<T extends EmulatorEventType>(type: T, data: () => Extract<EmulatorEvent, { type: T }>['data']): void {
    if (this.listeners.size === 0) return;
    const event = { type, data: data() } as EmulatorEvent;
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (error) {
        this.onListenerError(error);
      }
    }
  }

  get size(): number {
    return this.listeners.size;
  }
}

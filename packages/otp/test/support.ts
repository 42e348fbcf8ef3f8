// The real parts the suites run against: the in-process emulator with a client, and a clock.
import { createClient } from '@x/client';
import { createEmulator, DEFAULT_CUSTOMER, type EmulatorOptions } from '@x/emulator';

export function emulated(options: EmulatorOptions = {}) {
  const emulator = createEmulator({ deliveryDelayMs: 1000, callDelayMs: 1000, logger: { error() {}, warn() {} }, ...options });
  const client = createClient({ ...DEFAULT_CUSTOMER, baseUrl: 'http://emulator.local', fetch: emulator.fetch, retry: false });
  /** The code in the last message the phone received (SMS or call). */
  const codeOf = (phoneNumber: string) => emulator.outbox.latest(phoneNumber)?.code;
  const sent = (phoneNumber: string) => emulator.outbox.list().filter((m) => m.phoneNumber.replace(/\D/g, '') === phoneNumber.replace(/\D/g, ''));
  return { emulator, client, codeOf, sent };
}

/** A clock the test moves. */
export function clock(start = 1_800_000_000_000) {
  let at = start;
  return { now: () => at, advance: (ms: number) => void (at += ms) };
}

/** A code that is not `code` (same length). */
export const wrong = (code: string) => code.replace(/\d$/, (d) => String((Number(d) + 1) % 10));

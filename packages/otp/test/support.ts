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

/**
 * The same client with its `eval` calls counted (each is one round trip: the stores send nothing
 * else). A proxy of the real client, so that `@x/redis` recognises it as what it is.
 */
export function countingEvals<Client extends object>(client: Client) {
  const counter = { evals: 0 };
  const proxy = new Proxy(client, {
    get(target, name) {
      const value = Reflect.get(target, name, target) as unknown;
      if (name === 'eval' && typeof value === 'function') return (...args: unknown[]) => (counter.evals++, value.apply(target, args));
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { client: proxy, counter };
}

import { EmulatorError } from '../errors.js';

/**
 * The clock an emulator reads, as milliseconds: `now` called at every reading (a Date or a number),
 * else `Date.now()` looked up at every reading, so fake timers installed after the emulator was
 * created (`vi.useFakeTimers`, `jest.useFakeTimers`) apply to it.
 */
export function clockSource(now: (() => Date | number) | undefined): () => number {
  if (now === undefined) return () => Date.now();
  if (typeof now !== 'function') throw new EmulatorError('invalid_option', `now must be a function returning a Date or a number of milliseconds (as Date.now); got ${typeof now}.`);
  return () => {
    const value: unknown = now();
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    if (value instanceof Date && Number.isFinite(value.getTime())) return value.getTime();
    throw new EmulatorError('invalid_option', `now must return a Date or a number of milliseconds (as Date.now); it returned ${value instanceof Date ? 'an invalid Date' : typeof value === 'number' ? String(value) : typeof value}.`);
  };
}

/** The longest single move of the clock: one year. */
export const MAX_ADVANCE_MS = 366 * 86_400_000;

/**
 * The emulator's clock: the real (or injected, `options.now`) clock plus what `advance` added.
 * Everything the emulator decides by time reads it: deliveries, call outcomes, code expiry, Verify
 * API fallbacks and deadlines, retention, callback retries, the times in answers and the journal.
 * Signed requests are not checked against it: their dates come from the caller's real clock, so
 * the replay window and clock skew use the real (or injected) clock.
 */
export class Clock {
  private offset = 0;

  constructor(readonly base: () => number) {}

  readonly now = (): number => this.base() + this.offset;

  get offsetMs(): number {
    return this.offset;
  }

  /** Moves the clock forward by `ms` (checked: a whole number from 1 to a year). */
  move(ms: number): void {
    this.offset += checkAdvance(ms);
  }

  reset(): void {
    this.offset = 0;
  }

  /** Sets the offset a saved state had. */
  restore(offsetMs: number): void {
    this.offset = offsetMs;
  }
}

/** A duration to advance by: a whole number of milliseconds, 1 to a year. Throws an EmulatorError (`invalid_advance`). */
export function checkAdvance(ms: unknown): number {
  if (typeof ms !== 'number' || !Number.isInteger(ms) || ms < 1 || ms > MAX_ADVANCE_MS) {
    throw new EmulatorError('invalid_advance', `ms must be a whole number of milliseconds from 1 to ${MAX_ADVANCE_MS} (a year); got ${typeof ms === 'number' ? String(ms) : typeof ms}. The clock only moves forward.`);
  }
  return ms;
}

const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** "10m", "30s", "1h30m", "1500ms", "2d" or plain milliseconds; undefined when it is not a duration. */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  if (!/^(\d+(ms|s|m|h|d))+$/.test(trimmed)) return undefined;
  let total = 0;
  for (const [, amount, unit] of trimmed.matchAll(/(\d+)(ms|s|m|h|d)/g)) total += Number(amount) * UNITS[unit!]!;
  return total;
}

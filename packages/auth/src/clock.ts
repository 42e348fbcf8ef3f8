import { AuthError } from './errors.js';

/**
 * A clock: the time now, as a Date or as epoch milliseconds (`Date.now` is one). Every `now`
 * option of the SDK takes one, so that one test clock serves a client, a verifier and a store.
 */
export type Clock = () => Date | number;

/**
 * The time `clock` gives, in epoch milliseconds; `Date.now()` without a clock. A Date of any realm
 * counts as a Date. Throws an `AuthError` (`invalid_option`) when the clock gives anything but a
 * valid Date or a finite number.
 *
 * @example
 * ```ts
 * import { readClock, type Clock } from '@x/auth';
 *
 * const now: Clock = () => new Date('2024-01-02T03:04:05Z');
 * readClock(now);        // 1704164645000
 * readClock(() => 1000); // 1000
 * ```
 */
export function readClock(clock: Clock | undefined): number {
  if (clock === undefined) return Date.now();
  const value: unknown = clock();
  const ms = typeof value === 'number' ? value : typeof (value as Date | null)?.getTime === 'function' ? (value as Date).getTime() : Number.NaN;
  if (!Number.isFinite(ms)) {
    throw new AuthError('invalid_option', 'now() must return a Date or epoch milliseconds (a valid time), e.g. () => Date.now().');
  }
  return ms;
}

// Time limits of the test kit's waits (`waitFor`, `idle`) on real time. Fake timers (vitest's
// vi.useFakeTimers, jest's modern timers, @sinonjs/fake-timers) replace globalThis.setTimeout and
// Date: a limit set with them never comes unless the test moves them, and a wait that cannot end
// hangs the test. `AbortSignal.timeout` runs on the platform's own timer (Node, browsers, Deno,
// Bun, workerd), which they do not replace; it is looked up at every call (no copy kept), and where
// a runtime lacks it the global setTimeout of the moment is used.
import { EmulatorError } from '../errors.js';

/** The longest time limit a wait takes: an hour. */
export const WAIT_MAX_TIMEOUT_MS = 3_600_000;

/** Throws for a `timeoutMs` that is not a whole number of milliseconds within the limit. */
export function checkTimeout(t: unknown): void {
  if (t !== undefined && (typeof t !== 'number' || !Number.isInteger(t) || t < 0 || t > WAIT_MAX_TIMEOUT_MS)) {
    throw new EmulatorError('invalid_option', `timeoutMs must be a whole number of milliseconds from 0 to ${WAIT_MAX_TIMEOUT_MS}; got ${String(t)}.`);
  }
}

/** A signal that aborts after `ms` milliseconds of real time. */
export function realTimeSignal(ms: number): AbortSignal {
  if (typeof AbortSignal.timeout === 'function') return AbortSignal.timeout(ms);
  const controller = new AbortController();
  setTimeout(() => controller.abort(new DOMException('The operation timed out.', 'TimeoutError')), ms);
  return controller.signal;
}

/** Resolves after `ms` milliseconds of real time. */
export function realDelay(ms: number): Promise<void> {
  const signal = realTimeSignal(ms);
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

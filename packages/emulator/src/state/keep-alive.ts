/** Longer than any wait: the timer only has to exist, it never fires. */
const HOLD_MS = 2 ** 30;

/**
 * Keeps the event loop alive until `promise` settles. The emulator's own timers (deliveries,
 * callback retries) do not hold a process open, so `await emulator.idle()` in a plain script or
 * under `node --test` would otherwise end the process with work still due.
 */
export function heldOpen<T>(promise: Promise<T>): Promise<T> {
  const hold = setInterval(() => undefined, HOLD_MS);
  return promise.finally(() => clearInterval(hold));
}

// The signal of one attempt (the caller's signal, the timeout, and the client's own reasons to
// stop, such as the response cap), and the wait between attempts.
//
// The timeout is `AbortSignal.timeout` where it exists (a hand-wired timer where it does not).
// The caller's signal is linked with a listener that is removed when the attempt ends, not with
// `AbortSignal.any`: on Node 20, every `AbortSignal.any([callerSignal, ...])` stays referenced by
// a long-lived caller signal (an app-wide shutdown signal), so memory grows with every request.
import { AbortedError } from '../errors.js';

export interface AttemptSignal {
  /** Aborted by the caller, the timeout or `abort()`. */
  readonly signal: AbortSignal;
  /** Whether the timeout fired (rather than the caller or `abort()`). */
  timedOut(): boolean;
  /** Stops the attempt (e.g. at the response cap). */
  abort(reason: unknown): void;
  /** Unlinks the caller's signal and clears any timer. Call when the attempt ends. */
  release(): void;
}

function timeoutSignal(ms: number): { signal: AbortSignal; clear(): void } {
  if (typeof AbortSignal.timeout === 'function') return { signal: AbortSignal.timeout(ms), clear: () => {} };
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException('The operation timed out.', 'TimeoutError')), ms);
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}

export function attemptSignal(timeoutMs: number, caller: AbortSignal | undefined): AttemptSignal {
  const controller = new AbortController();
  const timeout = timeoutMs > 0 ? timeoutSignal(timeoutMs) : undefined;
  const links: Array<[AbortSignal, () => void]> = [];
  for (const source of [caller, timeout?.signal]) {
    if (!source) continue;
    if (source.aborted) {
      controller.abort(source.reason);
      continue;
    }
    const onAbort = () => controller.abort(source.reason);
    source.addEventListener('abort', onAbort, { once: true });
    links.push([source, onAbort]);
  }
  return {
    signal: controller.signal,
    timedOut: () => timeout?.signal.aborted === true && caller?.aborted !== true,
    abort: (reason) => controller.abort(reason),
    release: () => {
      for (const [source, onAbort] of links) source.removeEventListener('abort', onAbort);
      timeout?.clear();
    },
  };
}

/** Waits `ms`, or rejects with AbortedError when the caller's signal fires first. */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortedError(signal.reason));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortedError(signal!.reason));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

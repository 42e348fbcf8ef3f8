// emulator.idle(): runs what is due by the clock, then waits for scheduled deliveries and the
// callbacks they send. Its waits never depend on timers alone: fake timers (vi.useFakeTimers,
// jest.useFakeTimers) hold the emulator's timers, so idle also looks every TICK_MS of real time
// (real-time.ts) and runs what the clock has reached. When the clock stands still, nothing is in
// flight and the emulator's timers do not run either, nothing can ever happen by itself: idle says
// so after STALL_MS of real time instead of hanging the test. `timeoutMs` bounds the whole wait.
import { EmulatorError } from '../errors.js';
import type { CallbackSender } from './callbacks.js';
import type { Scheduler } from './scheduler.js';
import { checkTimeout, realDelay, realTimeSignal } from './real-time.js';

/** Options of `emulator.idle()`. */
export interface IdleOptions {
  /** Real milliseconds before it rejects (an EmulatorError, `wait_timeout`), even under fake timers. Default: no limit but the one below. At most 3 600 000. */
  timeoutMs?: number;
}

const TICK_MS = 25;
/** How long the clock may stand still, with nothing in flight and the timers not running, before idle gives up. */
export const STALL_MS = 1_000;

const at = (ms: number | undefined) => (ms === undefined ? '?' : new Date(ms).toISOString());

/** What idle waits for, in words. */
function explain(scheduler: Scheduler, callbacks: CallbackSender, now: number, clockMoved: boolean): string {
  const tasks = scheduler.waitingForeground();
  const waits = callbacks.waiting();
  const parts: string[] = [];
  const clock = " for the emulator's clock to reach ";
  if (tasks.count) parts.push(`${tasks.count} scheduled task(s) (delivery or status change) wait${clock}${at(tasks.at)}`);
  if (waits.sleeping) parts.push(`${waits.sleeping} callback retry(ies) wait${clock}${at(waits.at)}`);
  if (waits.inFlight) parts.push(`${waits.inFlight} callback attempt(s) under way`);
  return `${parts.join('; ') || 'callbacks are being sent'}; it reads ${at(now)}${clockMoved ? '' : ' and did not move'}`;
}

const HOW = 'Fake timers hold the clock and timers: advance them (vi.advanceTimersByTime) or the emulator\'s clock (emulator.clock.advance)';

/** See `Emulator.idle`. */
export async function idle(scheduler: Scheduler, callbacks: CallbackSender, now: () => number, options: IdleOptions = {}): Promise<void> {
  checkTimeout(options.timeoutMs);
  const started = now();
  let finished = false;
  const done = (async () => {
    await scheduler.idle();
    await callbacks.idle();
  })().finally(() => (finished = true));
  const deadline = options.timeoutMs === undefined ? undefined : realTimeSignal(options.timeoutMs);
  // A window of STALL_MS real time: did the clock move, did a timer of the global setTimeout run?
  let window = openWindow(now());
  try {
    for (;;) {
      await Promise.race([done, realDelay(TICK_MS)]);
      if (finished) return await done;
      // Due by the clock, though a held timer has not said so.
      scheduler.runDue();
      if (deadline?.aborted) {
        throw new EmulatorError('wait_timeout', `idle timed out after ${options.timeoutMs} ms of real time: ${explain(scheduler, callbacks, now(), now() !== started)}. ${HOW}.`);
      }
      if (window.ends.aborted) {
        const stalled = !window.timerRan() && now() === window.clock && callbacks.waiting().inFlight === 0;
        window.close();
        if (stalled) throw new EmulatorError('wait_timeout', `idle stopped: ${explain(scheduler, callbacks, now(), false)} in ${STALL_MS} ms of real time, its timers not run. ${HOW}.`);
        window = openWindow(now());
      }
    }
  } finally {
    window.close();
  }
}

function openWindow(clock: number) {
  let ran = false;
  // Looked up now: fake timers installed after the emulator was created replace it too.
  const probe = setTimeout(() => (ran = true), 0);
  return { clock, ends: realTimeSignal(STALL_MS), timerRan: () => ran, close: () => clearTimeout(probe) };
}

// The emulator's scheduler on its own: order (a property test against a sorted list), cancel, idle,
// a moved clock, close, and one timer for any number of tasks.
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Scheduler } from '../src/state/scheduler.js';

let schedulers: Scheduler[] = [];
afterEach(() => {
  for (const scheduler of schedulers) scheduler.close();
  schedulers = [];
});

/** A scheduler on a clock the test moves. */
function manual(start = 1_000) {
  let now = start;
  const scheduler = new Scheduler(() => now);
  schedulers.push(scheduler);
  return { scheduler, move: (ms: number) => void (now += ms) };
}

describe('Scheduler', () => {
  it('runs due tasks in order of time, and tasks of the same time in the order they were scheduled', () => {
    const { scheduler, move } = manual();
    const ran: string[] = [];
    // Scrambled times, with ties, enough to exercise the queue.
    const times = Array.from({ length: 200 }, (_, i) => 1_000 + ((i * 37) % 50));
    times.forEach((at, i) => scheduler.at(at, () => ran.push(`${at}:${i}`)));
    expect(scheduler.size).toBe(200);
    move(25);
    scheduler.runDue();
    const expected = times
      .map((at, i) => ({ at, i }))
      .filter(({ at }) => at <= 1_025)
      .sort((a, b) => a.at - b.at || a.i - b.i)
      .map(({ at, i }) => `${at}:${i}`);
    expect(ran).toEqual(expected);
    expect(scheduler.size).toBe(200 - expected.length);
  });

  it('runs its tasks in order of time, then of scheduling, for any mix of scheduling, cancelling and moving the clock (property)', () => {
    const op = fc.oneof(
      // Times from a small range: ties, tasks in order and out of order, some already due.
      fc.record({ at: fc.integer({ min: 0, max: 40 }), background: fc.boolean() }),
      fc.record({ cancel: fc.nat() }),
      fc.record({ move: fc.integer({ min: 0, max: 10 }) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), (ops) => {
        const { scheduler, move } = manual(0);
        let now = 0;
        const ran: number[] = [];
        const expected: number[] = [];
        const waiting: Array<{ at: number; seq: number; task: { cancel(): void } }> = [];
        const runDue = () => {
          scheduler.runDue();
          waiting.sort((a, b) => a.at - b.at || a.seq - b.seq);
          while (waiting.length && waiting[0]!.at <= now) expected.push(waiting.shift()!.seq);
        };
        ops.forEach((o, seq) => {
          if ('at' in o) waiting.push({ at: o.at, seq, task: scheduler.at(o.at, () => ran.push(seq), { background: o.background }) });
          else if ('cancel' in o) {
            if (waiting.length) waiting.splice(o.cancel % waiting.length, 1)[0]!.task.cancel();
          } else {
            move(o.move);
            now += o.move;
            runDue();
          }
          expect(scheduler.size).toBe(waiting.length);
        });
        move(100);
        now += 100;
        runDue();
        expect(ran).toEqual(expected);
        expect(scheduler.size).toBe(0);
      }),
      { numRuns: 300 },
    );
  });

  it('never runs a cancelled task, and cancelling twice or after it ran changes nothing', () => {
    const { scheduler, move } = manual();
    const ran: number[] = [];
    const tasks = [1, 2, 3, 4].map((n) => scheduler.at(1_000 + n, () => ran.push(n)));
    tasks[1]!.cancel();
    tasks[1]!.cancel();
    tasks[0]!.cancel(); // the front of the queue
    expect(scheduler.size).toBe(2);
    move(10);
    scheduler.runDue();
    tasks[2]!.cancel();
    expect(ran).toEqual([3, 4]);
    expect(scheduler.size).toBe(0);
  });

  it('a task is its own handle: cancelled through another scheduler, it is not cancelled', () => {
    const { scheduler, move } = manual();
    const other = manual().scheduler;
    const ran: number[] = [];
    const task = scheduler.at(1_001, () => ran.push(1));
    other.cancel(task);
    other.cancel({ cancel: () => undefined });
    expect(scheduler.size).toBe(1);
    move(10);
    scheduler.runDue();
    expect(ran).toEqual([1]);
  });

  it('runs a task scheduled by a running task when it is due too', () => {
    const { scheduler, move } = manual();
    const ran: string[] = [];
    scheduler.at(1_001, () => {
      ran.push('first');
      scheduler.at(1_002, () => ran.push('scheduled by first'));
      scheduler.at(5_000, () => ran.push('later'));
    });
    scheduler.at(1_003, () => ran.push('second'));
    move(5);
    scheduler.runDue();
    expect(ran).toEqual(['first', 'scheduled by first', 'second']);
    expect(scheduler.size).toBe(1);
  });

  it('idle() runs what the clock made due and waits for foreground tasks only', async () => {
    const { scheduler, move } = manual();
    const ran: string[] = [];
    scheduler.at(1_010, () => ran.push('delivery'));
    scheduler.at(1_000 + 3_600_000, () => ran.push('deadline'), { background: true });
    move(10);
    await scheduler.idle();
    expect(ran).toEqual(['delivery']);
    expect(scheduler.size).toBe(1);
  });

  it('idle() waits for a foreground task on the real clock', async () => {
    const scheduler = new Scheduler(() => Date.now());
    schedulers.push(scheduler);
    const ran: string[] = [];
    scheduler.at(Date.now() + 30, () => ran.push('a'));
    scheduler.at(Date.now() + 10, () => ran.push('b'));
    await scheduler.idle();
    expect(ran).toEqual(['b', 'a']);
  });

  it('runs tasks by its timer when their time comes, one timer for any number of tasks', async () => {
    const scheduler = new Scheduler(() => Date.now());
    schedulers.push(scheduler);
    const setTimeoutCalls = vi.spyOn(globalThis, 'setTimeout');
    const ran: number[] = [];
    const done = new Promise<void>((resolve) => {
      for (let i = 0; i < 100; i++) scheduler.at(Date.now() + 20 + (i % 7), () => ran.push(i) === 100 && resolve());
    });
    const armed = setTimeoutCalls.mock.calls.length;
    setTimeoutCalls.mockRestore();
    expect(armed).toBe(1);
    await done;
    expect(ran).toHaveLength(100);
    expect(scheduler.size).toBe(0);
  });

  it('runs background tasks at their own time too, in order, among the foreground ones', () => {
    vi.useFakeTimers({ now: 1_000 });
    try {
      const t0 = Date.now();
      const scheduler = new Scheduler(() => Date.now());
      schedulers.push(scheduler);
      const ran: Array<{ name: string; due: number; at: number }> = [];
      const task = (name: string, due: number, background: boolean) => scheduler.at(due, () => ran.push({ name, due, at: Date.now() }), { background });
      for (let i = 1; i < 20; i++) task(`background ${i}`, t0 + i, true);
      task('foreground', t0 + 5, false);
      vi.advanceTimersByTime(20);
      expect(ran).toHaveLength(20);
      for (const r of ran) expect(r.at).toBe(r.due);
      expect(ran.map((r) => r.name).indexOf('foreground')).toBe(5); // after "background 5", scheduled before it
      expect(scheduler.size).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('with a clock that stands still, waits each task from the one before, as a timer each would', async () => {
    const frozen = Date.now();
    const scheduler = new Scheduler(() => frozen);
    schedulers.push(scheduler);
    const started = performance.now();
    const at: Record<string, number> = {};
    await new Promise<void>((resolve) => {
      scheduler.at(frozen + 20, () => void (at.first = performance.now() - started));
      scheduler.at(frozen + 60, () => {
        at.second = performance.now() - started;
        resolve();
      });
    });
    // Not a timing assertion: the second waited for its own time, not the first's time twice.
    expect(at.second! - at.first!).toBeGreaterThanOrEqual(30);
  });

  it('retime() runs what a moved clock made due and sets the timer to the time left', async () => {
    // One reading of the real clock: read again, it may have moved on by a millisecond, and the task
    // a minute after it would not be due yet when the manual clock is moved by exactly a minute.
    const t0 = Date.now();
    const { scheduler, move } = manual(t0);
    const ran: string[] = [];
    scheduler.at(t0 + 60_000, () => ran.push('in a minute'));
    const soon = new Promise<void>((resolve) => scheduler.at(t0 + 60_010, () => resolve()));
    move(60_000);
    scheduler.retime();
    expect(ran).toEqual(['in a minute']);
    await soon; // 10 ms of real time now, not a minute
    expect(scheduler.size).toBe(0);
  });

  it('close() stops everything: nothing runs, idle() returns', async () => {
    // A clock the test moves: on the real one, a slow machine let the first task fall due before close().
    const { scheduler, move } = manual();
    const ran: number[] = [];
    for (let i = 0; i < 10; i++) scheduler.at(1_000 + 5 + i, () => ran.push(i));
    const idle = scheduler.idle();
    scheduler.close();
    await idle;
    expect(scheduler.size).toBe(0);
    move(100);
    scheduler.runDue();
    await new Promise((resolve) => setTimeout(resolve, 30)); // the timer it had set, had it kept one
    expect(ran).toEqual([]);
  });

  it('a task beyond the longest timer delay runs at its own time, not when the timer first wakes up', () => {
    vi.useFakeTimers({ now: 1_000 });
    try {
      const scheduler = new Scheduler(() => Date.now());
      schedulers.push(scheduler);
      const day = 86_400_000;
      const due = Date.now() + 40 * day;
      const ran: number[] = [];
      scheduler.at(due, () => ran.push(Date.now()));
      vi.advanceTimersByTime(30 * day); // past setTimeout's longest delay (about 24.8 days)
      expect(ran).toEqual([]);
      vi.advanceTimersByTime(10 * day);
      expect(ran).toEqual([due]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a task beyond the longest timer delay waits, without a timer overflow (which Node turns into 1 ms)', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => void warnings.push(warning.name);
    process.on('warning', onWarning);
    const { scheduler } = manual(Date.now());
    const ran: string[] = [];
    scheduler.at(Date.now() + 40 * 86_400_000, () => ran.push('in 40 days'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    process.off('warning', onWarning);
    expect(warnings).toEqual([]);
    expect(ran).toEqual([]);
    expect(scheduler.size).toBe(1);
  });
});

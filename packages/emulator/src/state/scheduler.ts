import { before, TaskQueue } from './task-queue.js';

/** A task to run at a time of the emulator's clock; `cancel()` forgets it. */
export interface Scheduled {
  cancel(): void;
}

/**
 * A task, and the handle its scheduler returns: one object per task (a cancel closure and a handle
 * beside it were three more per transaction, each kept for the whole delivery delay).
 */
class Task implements Scheduled {
  /** Run or cancelled: it stays in the queue, skipped, until it reaches the front. */
  done = false;

  constructor(
    readonly scheduler: Scheduler,
    readonly at: number,
    /** The order of scheduling: tasks of the same time run in it. */
    readonly seq: number,
    public run: () => void,
    readonly background: boolean,
  ) {}

  cancel(): void {
    this.scheduler.cancel(this);
  }
}

/** setTimeout's longest delay (about 24.8 days); a later task is reached by waking up at this bound. */
const MAX_DELAY = 2 ** 31 - 1;
const NOTHING = () => undefined;

/**
 * Background tasks wait for the next multiple of this on the clock, so that one wake-up runs all
 * of those due within it, rather than a wake-up every millisecond for a server taking thousands of
 * SMS a second (each settling a second later, each at its own millisecond).
 * Foreground tasks keep their exact time.
 */
export const BACKGROUND_TICK_MS = 20;
const tickOf = (at: number) => Math.ceil(at / BACKGROUND_TICK_MS) * BACKGROUND_TICK_MS;

/**
 * Runs tasks at times of the emulator's clock (`now`). One real timer waits for the earliest task
 * and runs every task due then, in order of time: one timer per emulator rather than one per
 * transaction (a server took one Node timer, two ref toggles and a microtask drain per request).
 * `idle()` first runs every task already due by the clock, so a test that moves an injected clock
 * forward and awaits `idle()` sees what happens at that time without sleeping. `idle()` then waits
 * for the foreground tasks (deliveries), not for background ones (a fallback or a deadline minutes
 * away), which run when their time comes. The timer never keeps a Node process alive.
 */
export class Scheduler {
  /** Tasks by time then `seq`, foreground and background apart; done tasks leave when they reach the front. */
  private readonly foregroundQueue = new TaskQueue<Task>();
  private readonly backgroundQueue = new TaskQueue<Task>();
  private readonly queues = [this.foregroundQueue, this.backgroundQueue];
  /** Tasks not yet run or cancelled. */
  private pending = 0;
  private seq = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The time the timer is set for (Infinity: none). */
  private timerAt = Infinity;
  /** Foreground tasks not yet run or cancelled, and who waits for one of them to finish (idle()). */
  private foreground = 0;
  private waiting: Array<() => void> = [];

  constructor(private readonly now: () => number) {}

  at(at: number, run: () => void, options: { background?: boolean } = {}): Scheduled {
    // No promise per task (one per request costs a server microseconds): a count, and promises
    // only for the callers of idle().
    const background = options.background === true;
    if (!background) this.foreground++;
    const task = new Task(this, at, this.seq++, run, background);
    this.queueOf(task).push(task);
    this.pending++;
    if ((background ? tickOf(at) : at) < this.timerAt) this.arm();
    return task;
  }

  /** Tasks waiting for their time. */
  get size(): number {
    return this.pending;
  }

  /** The foreground tasks (those `idle()` waits for) not yet run, and the clock time of the earliest. */
  waitingForeground(): { count: number; at?: number } {
    let at: number | undefined;
    for (const task of this.foregroundQueue.values()) if (!task.done && (at === undefined || task.at < at)) at = task.at;
    return { count: this.foreground, ...(at !== undefined ? { at } : {}) };
  }

  /** Runs the tasks due by the clock now, then waits for the others (and whatever they schedule). */
  async idle(): Promise<void> {
    for (;;) {
      this.runDue();
      if (!this.foreground) return;
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  /** Runs every task due by the clock, in the order of their times (and those they schedule that are due too). */
  runDue(): void {
    this.runUntil(-Infinity);
  }

  /** After the clock moved: runs what is due, and sets the timer to the time now left. */
  retime(): void {
    this.runDue();
    this.arm();
  }

  /** Stops the timer; nothing scheduled runs any more. */
  close(): void {
    for (const queue of this.queues) {
      for (const task of queue.values()) this.drop(task);
      queue.clear();
    }
    this.arm();
  }

  private queueOf(task: Task): TaskQueue<Task> {
    return task.background ? this.backgroundQueue : this.foregroundQueue;
  }

  /** The task to run first: the earlier of the two queues' fronts. */
  private front(): Task | undefined {
    const foreground = this.foregroundQueue.peek();
    const background = this.backgroundQueue.peek();
    if (!foreground || !background) return foreground ?? background;
    return before(background, foreground) ? background : foreground;
  }

  /** Runs the tasks due by the clock or at `time` (the timer's: a timer may fire a little before the clock reaches it). */
  private runUntil(time: number): void {
    for (let task = this.front(); task && (task.at <= time || task.at <= this.now()); task = this.front()) {
      this.queueOf(task).shift();
      if (task.done) continue;
      const run = task.run;
      this.drop(task);
      run();
    }
  }

  /**
   * Sets the one timer to the earliest time a task is to run (none when there is none: a foreground
   * task's own time, a background task's next tick), waiting from
   * `from` on the clock: now, or after a firing the time it fired for when the clock reads earlier
   * (an injected clock that stands still: each task waits from the one before, as with a timer each).
   */
  private arm(from?: number): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Infinity;
    for (const queue of this.queues) while (queue.peek()?.done) queue.shift();
    const foreground = this.foregroundQueue.peek();
    const background = this.backgroundQueue.peek();
    if (!foreground && !background) return;
    const at = Math.min(foreground?.at ?? Infinity, background ? tickOf(background.at) : Infinity);
    this.timerAt = at;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.timerAt = Infinity;
      try {
        this.runUntil(at);
      } finally {
        this.arm(Math.max(at, this.now()));
      }
    }, Math.min(MAX_DELAY, Math.max(0, at - (from ?? this.now()))));
    (this.timer as { unref?: () => void }).unref?.();
  }

  /** Forgets a task (what `cancel()` of a task this scheduler returned does); nothing if it has run or was cancelled. */
  cancel(task: Scheduled): void {
    if (task instanceof Task && task.scheduler === this) this.drop(task);
  }

  private drop(task: Task): void {
    if (task.done) return;
    task.done = true;
    task.run = NOTHING; // what the task holds is not kept until it leaves the queue
    this.pending--;
    if (task.background) return;
    this.foreground--;
    // Wakes idle() (it resumes after this task has run: runUntil runs it synchronously right after).
    const waiting = this.waiting;
    if (waiting.length) {
      this.waiting = [];
      for (const wake of waiting) wake();
    }
  }
}

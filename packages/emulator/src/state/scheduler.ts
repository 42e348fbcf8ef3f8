/** A task to run at a time of the emulator's clock; `cancel()` forgets it. */
export interface Scheduled {
  cancel(): void;
}

/** A task, and the handle its scheduler returns. */
class Task implements Scheduled {
  /** Run or cancelled: it stays in the heap, skipped, until it reaches the top. */
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

/** Whether `a` runs before `b`: earlier, or as early and scheduled first. */
const before = (a: Task, b: Task): boolean => a.at < b.at || (a.at === b.at && a.seq < b.seq);

/**
 * Runs tasks at times of the emulator's clock (`now`), in order of time, then of scheduling. The
 * tasks wait in one binary min-heap; one real timer waits for the earliest and never keeps a Node
 * process alive. `idle()` first runs every task already due by the clock, so a test that moves an
 * injected clock forward and awaits `idle()` sees what happens at that time without sleeping.
 * `idle()` then waits for the foreground tasks (deliveries), not for background ones (a fallback
 * or a deadline minutes away), which run when their time comes.
 */
export class Scheduler {
  private heap: Task[] = [];
  private seq = 0;
  /** Tasks not yet run or cancelled, and those of them `idle()` waits for. */
  private pending = 0;
  private foreground = 0;
  /** Who waits for a foreground task to finish (idle()). */
  private waiting: Array<() => void> = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The time the timer is set for (Infinity: none). */
  private timerAt = Infinity;

  constructor(readonly now: () => number) {}

  at(at: number, run: () => void, options: { background?: boolean } = {}): Scheduled {
    const task = new Task(this, at, this.seq++, run, options.background === true);
    this.push(task);
    this.pending++;
    if (!task.background) this.foreground++;
    if (at < this.timerAt) this.arm();
    return task;
  }

  /** Tasks waiting for their time. */
  get size(): number {
    return this.pending;
  }

  /** The foreground tasks (those `idle()` waits for) not yet run, and the clock time of the earliest. */
  waitingForeground(): { count: number; at?: number } {
    let at: number | undefined;
    for (const task of this.heap) if (!task.done && !task.background && (at === undefined || task.at < at)) at = task.at;
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

  /** Runs every task due by the clock, in order (and those they schedule that are due too). */
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
    for (const task of this.heap) this.drop(task);
    this.heap = [];
    this.arm();
  }

  /** Forgets a task (what `cancel()` of a task this scheduler returned does); nothing if it has run or was cancelled. */
  cancel(task: Scheduled): void {
    if (task instanceof Task && task.scheduler === this) this.drop(task);
  }

  /** The task to run first, the cancelled ones before it taken off. */
  private front(): Task | undefined {
    while (this.heap[0]?.done) this.pop();
    return this.heap[0];
  }

  /** Runs the tasks due by the clock or at `time` (the timer's: a timer may fire a little before the clock reaches it). */
  private runUntil(time: number): void {
    for (let task = this.front(); task && (task.at <= time || task.at <= this.now()); task = this.front()) {
      this.pop();
      const run = task.run;
      this.drop(task);
      run();
    }
  }

  /**
   * Sets the one timer to the earliest task's time, waiting from `from` on the clock: now, or
   * after a firing the time it fired for when the clock reads earlier (an injected clock that
   * stands still: each task waits from the one before, as with a timer each).
   */
  private arm(from?: number): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Infinity;
    const next = this.front();
    if (!next) return;
    const delay = Math.max(0, next.at - (from ?? this.now()));
    // Beyond the longest delay the timer only wakes up to wait again.
    const reached = delay <= MAX_DELAY ? next.at : -Infinity;
    this.timerAt = next.at;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.timerAt = Infinity;
      try {
        this.runUntil(reached);
      } finally {
        this.arm(Math.max(reached, this.now()));
      }
    }, Math.min(delay, MAX_DELAY));
    (this.timer as { unref?: () => void }).unref?.();
  }

  private drop(task: Task): void {
    if (task.done) return;
    task.done = true;
    task.run = NOTHING; // what the task holds is not kept until it leaves the heap
    this.pending--;
    if (task.background) return;
    this.foreground--;
    // Wakes idle() (it resumes after this task has run: runUntil runs it synchronously right after).
    for (const wake of this.waiting.splice(0)) wake();
  }

  private push(task: Task): void {
    const heap = this.heap;
    let i = heap.push(task) - 1;
    while (i > 0 && before(task, heap[(i - 1) >> 1]!)) {
      heap[i] = heap[(i - 1) >> 1]!;
      i = (i - 1) >> 1;
    }
    heap[i] = task;
  }

  private pop(): void {
    const heap = this.heap;
    const last = heap.pop()!;
    if (heap.length === 0) return;
    let i = 0;
    for (let child = 1; child < heap.length; child = 2 * i + 1) {
      if (child + 1 < heap.length && before(heap[child + 1]!, heap[child]!)) child++;
      if (!before(heap[child]!, last)) break;
      heap[i] = heap[child]!;
      i = child;
    }
    heap[i] = last;
  }
}

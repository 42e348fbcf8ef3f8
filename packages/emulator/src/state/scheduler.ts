/** A task to run at a time of the emulator's clock; `cancel()` forgets it. */
export interface Scheduled {
  cancel(): void;
}

interface Task {
  at: number;
  run: () => void;
  timer: ReturnType<typeof setTimeout>;
  background: boolean;
}

/**
 * Runs tasks at times of the emulator's clock (`now`). A real timer waits the difference; `idle()`
 * first runs every task already due by the clock, so a test that moves an injected clock forward
 * and awaits `idle()` sees what happens at that time without sleeping. `idle()` then waits for the
 * foreground tasks (deliveries), not for background ones (a fallback or a deadline minutes away),
 * which run when their time comes. Timers never keep a Node process alive.
 */
export class Scheduler {
  private readonly tasks = new Set<Task>();
  /** Foreground tasks not yet run or cancelled, and who waits for one of them to finish (idle()). */
  private foreground = 0;
  private waiting: Array<() => void> = [];

  constructor(private readonly now: () => number) {}

  at(at: number, run: () => void, options: { background?: boolean } = {}): Scheduled {
    // No promise per task (one per request costs a server microseconds): a count, and promises
    // only for the callers of idle().
    const background = options.background === true;
    if (!background) this.foreground++;
    const task: Task = { at, run, background, timer: undefined as never };
    this.arm(task);
    this.tasks.add(task);
    return { cancel: () => this.drop(task) };
  }

  /** Tasks waiting for their time. */
  get size(): number {
    return this.tasks.size;
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
    for (;;) {
      const due = [...this.tasks].filter((t) => t.at <= this.now()).sort((a, b) => a.at - b.at);
      if (!due.length) return;
      for (const task of due) this.fire(task);
    }
  }

  /** After the clock moved: runs what is due, and sets the timers of the others to the time now left. */
  retime(): void {
    this.runDue();
    for (const task of this.tasks) {
      clearTimeout(task.timer);
      this.arm(task);
    }
  }

  private arm(task: Task): void {
    task.timer = setTimeout(() => this.fire(task), Math.max(0, task.at - this.now()));
    (task.timer as { unref?: () => void }).unref?.();
  }

  /** Stops every timer; nothing scheduled runs any more. */
  close(): void {
    for (const task of [...this.tasks]) this.drop(task);
  }

  private fire(task: Task): void {
    if (!this.tasks.has(task)) return;
    this.drop(task);
    task.run();
  }

  private drop(task: Task): void {
    if (!this.tasks.delete(task)) return;
    clearTimeout(task.timer);
    if (task.background) return;
    this.foreground--;
    // Wakes idle() (it resumes after this task has run: fire() runs it synchronously right after).
    const waiting = this.waiting;
    if (waiting.length) {
      this.waiting = [];
      for (const wake of waiting) wake();
    }
  }
}

/** What the queue orders by: a time, then the order of scheduling (`seq`, increasing). */
export interface Queued {
  readonly at: number;
  readonly seq: number;
}

/** Whether `a` comes before `b`: earlier, or as early and scheduled first. */
export const before = (a: Queued, b: Queued): boolean => a.at < b.at || (a.at === b.at && a.seq < b.seq);

/** Past this many taken from the front of the in-order list (and half of it), the list is copied without them. */
const COMPACT_AFTER = 1024;

/**
 * Tasks in order of time, then of scheduling. Most arrive in order (every SMS waits the same
 * delivery delay, so each is due after the one before): those are appended to a list and taken
 * from its front, in constant time and in memory order. A task due before the last of that list
 * waits in a binary min-heap instead. The front of the queue is the earlier of the two fronts.
 * With every task in one heap, taking the front walked a path of the heap's depth (13 levels at
 * 8,000 tasks, one per SMS of the last second), on objects scattered in memory.
 */
export class TaskQueue<T extends Queued> {
  /** Tasks that arrived in order, each due at or after the one before; the live ones start at `head`. */
  private inOrder: Array<T | undefined> = [];
  private head = 0;
  /** The others, a binary min-heap. */
  private heap: T[] = [];

  get size(): number {
    return this.inOrder.length - this.head + this.heap.length;
  }

  push(task: T): void {
    const last = this.inOrder[this.inOrder.length - 1];
    if (this.head === this.inOrder.length || !before(task, last!)) this.inOrder.push(task);
    else this.pushHeap(task);
  }

  /** The task due first, if any. */
  peek(): T | undefined {
    const listed = this.inOrder[this.head];
    const heaped = this.heap[0];
    if (!listed || !heaped) return listed ?? heaped;
    return before(heaped, listed) ? heaped : listed;
  }

  /** Takes the task due first off the queue. */
  shift(): T | undefined {
    const listed = this.inOrder[this.head];
    const heaped = this.heap[0];
    if (listed && (!heaped || before(listed, heaped))) {
      this.inOrder[this.head++] = undefined;
      if (this.head === this.inOrder.length) this.clearList();
      else if (this.head >= COMPACT_AFTER && this.head * 2 >= this.inOrder.length) {
        this.inOrder = this.inOrder.slice(this.head);
        this.head = 0;
      }
      return listed;
    }
    if (heaped) this.popHeap();
    return heaped;
  }

  /** Every task queued, in no particular order. */
  values(): T[] {
    return [...(this.inOrder.slice(this.head) as T[]), ...this.heap];
  }

  clear(): void {
    this.clearList();
    this.heap = [];
  }

  /** A fresh array rather than an emptied one: an array keeps the capacity it grew to (a burst of requests). */
  private clearList(): void {
    this.inOrder = [];
    this.head = 0;
  }

  private pushHeap(task: T): void {
    const heap = this.heap;
    let i = heap.push(task) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(task, heap[parent]!)) break;
      heap[i] = heap[parent]!;
      i = parent;
    }
    heap[i] = task;
  }

  private popHeap(): void {
    const heap = this.heap;
    const last = heap.pop()!;
    if (!heap.length) {
      this.heap = [];
      return;
    }
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= heap.length) break;
      if (child + 1 < heap.length && before(heap[child + 1]!, heap[child]!)) child++;
      if (!before(heap[child]!, last)) break;
      heap[i] = heap[child]!;
      i = child;
    }
    heap[i] = last;
  }
}

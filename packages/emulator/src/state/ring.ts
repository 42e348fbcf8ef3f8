/**
 * A first-in first-out buffer of at most `capacity` items: adding to a full ring pushes the oldest
 * out, in constant time. The storage grows by doubling up to the capacity (an emulator that keeps
 * few items never allocates room for 200 000), then every operation is O(1).
 */
export class Ring<T> {
  private slots: Array<T | undefined> = [];
  private head = 0;
  private count = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 0) throw new RangeError(`A ring's capacity must be a whole number >= 0; got ${String(capacity)}.`);
  }

  /** Adds at the newest end; returns the item pushed out at the oldest end when the ring was full (with capacity 0: the item itself). */
  push(item: T): T | undefined {
    if (this.capacity === 0) return item;
    if (this.count === this.slots.length && this.slots.length < this.capacity) this.grow();
    const size = this.slots.length;
    if (this.count < size) {
      this.slots[(this.head + this.count++) % size] = item;
      return undefined;
    }
    const out = this.slots[this.head];
    this.slots[this.head] = item;
    this.head = (this.head + 1) % size;
    return out;
  }

  /** The oldest item. */
  peek(): T | undefined {
    return this.count ? this.slots[this.head] : undefined;
  }

  /** The newest item. */
  last(): T | undefined {
    return this.count ? this.slots[(this.head + this.count - 1) % this.slots.length] : undefined;
  }

  /** Removes and returns the oldest item. */
  shift(): T | undefined {
    if (!this.count) return undefined;
    const out = this.slots[this.head];
    this.slots[this.head] = undefined;
    this.head = (this.head + 1) % this.slots.length;
    this.count--;
    return out;
  }

  /** Oldest first. */
  *values(): IterableIterator<T> {
    const size = this.slots.length;
    for (let i = 0; i < this.count; i++) yield this.slots[(this.head + i) % size]!;
  }

  /** Newest first. */
  *newest(): IterableIterator<T> {
    const size = this.slots.length;
    for (let i = this.count - 1; i >= 0; i--) yield this.slots[(this.head + i) % size]!;
  }

  get length(): number {
    return this.count;
  }

  clear(): void {
    this.slots = [];
    this.head = 0;
    this.count = 0;
  }

  private grow(): void {
    const next = new Array<T | undefined>(Math.min(this.capacity, Math.max(8, this.slots.length * 2)));
    for (let i = 0; i < this.count; i++) next[i] = this.slots[(this.head + i) % this.slots.length];
    this.slots = next;
    this.head = 0;
  }
}

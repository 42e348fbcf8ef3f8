// The scheduler's queue: tasks leave it in order of time, then of scheduling, whether they arrive
// in order (the list) or not (the heap), and whatever the mix of pushes and shifts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TaskQueue } from '../src/state/task-queue.js';

interface Item {
  at: number;
  seq: number;
}

/** Runs a sequence of operations on a queue and on a sorted array; returns what each shift gave. */
function replay(ops: Array<{ push: number } | 'shift'>): { queue: Array<Item | undefined>; reference: Array<Item | undefined>; size: number; left: number } {
  const queue = new TaskQueue<Item>();
  const reference: Item[] = [];
  const fromQueue: Array<Item | undefined> = [];
  const fromReference: Array<Item | undefined> = [];
  let seq = 0;
  for (const op of ops) {
    if (op === 'shift') {
      expect(queue.peek()).toBe(reference[0]);
      fromQueue.push(queue.shift());
      fromReference.push(reference.shift());
    } else {
      const item = { at: op.push, seq: seq++ };
      queue.push(item);
      reference.push(item);
      reference.sort((a, b) => a.at - b.at || a.seq - b.seq);
    }
  }
  return { queue: fromQueue, reference: fromReference, size: queue.size, left: reference.length };
}

describe('TaskQueue', () => {
  it('gives its tasks in order of time, then of scheduling, for any mix of pushes and shifts', () => {
    const op = fc.oneof(
      // Times from a small range: ties, tasks in order and out of order.
      fc.record({ push: fc.integer({ min: 0, max: 40 }) }),
      fc.constant('shift' as const),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
        const run = replay(ops);
        expect(run.queue).toEqual(run.reference);
        expect(run.size).toBe(run.left);
      }),
      { numRuns: 300 },
    );
  });

  it('tasks mostly in order, a few earlier, across the compaction of its list', () => {
    const ops: Array<{ push: number } | 'shift'> = [];
    for (let i = 0; i < 5_000; i++) {
      ops.push({ push: i % 97 === 0 ? i - 500 : i });
      if (i % 3 !== 0) ops.push('shift');
    }
    for (let i = 0; i < 2_000; i++) ops.push('shift');
    const run = replay(ops);
    expect(run.queue).toEqual(run.reference);
    expect(run.size).toBe(0);
    expect(run.left).toBe(0);
  });

  it('values() holds every task queued, clear() none', () => {
    const queue = new TaskQueue<Item>();
    const items = [5, 1, 7, 7, 3].map((at, seq) => ({ at, seq }));
    for (const item of items) queue.push(item);
    queue.shift();
    expect(new Set(queue.values())).toEqual(new Set(items.filter((i) => i.at !== 1)));
    queue.clear();
    expect(queue.size).toBe(0);
    expect(queue.peek()).toBeUndefined();
    expect(queue.shift()).toBeUndefined();
  });
});

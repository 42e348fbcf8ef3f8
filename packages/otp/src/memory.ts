// The store in one process's memory: O(1) per decision (a fixed number of keys, each a ring of at
// most `max` times or `buckets` counters), at most `maxEntries` keys.
import { XError } from '@x/auth';
import type { AttemptOutcome, FlowRecord, GuardPlan, GuardVerdict, NewFlow, OtpStore, SendClaim, SendPlan } from './store.js';

export interface MemoryStoreOptions {
  /**
   * Most keys kept at once (default 100 000): windows, counters, cooling marks and flows each
   * count one. When full, the key created first is dropped (its window starts again), so size it
   * above the numbers, addresses and flows of your peak window, or use `@x/otp/redis`.
   */
  maxEntries?: number | undefined;
}

/** The last `max` event times: appended until full, then a ring whose `head` is the oldest. */
interface Times {
  kind: 'times';
  max: number;
  at: number[];
  head: number;
}
/** Started and completed counts per bucket; `epoch[i]` is the bucket number slot i holds. */
interface Counts {
  kind: 'counts';
  epoch: number[];
  started: number[];
  completed: number[];
}
interface Mark {
  kind: 'mark';
}
interface Flow {
  kind: 'flow';
  record: FlowRecord;
}
type Value = Times | Counts | Mark | Flow;
interface Entry {
  value: Value;
  expiry: number;
  slot: number;
}

/** Keys with an expiry, at most `max`: a ring of slots in creation order evicts the oldest in O(1). */
function boundedMap(max: number) {
  const map = new Map<string, Entry>();
  const slots: Array<string | undefined> = new Array(max);
  let next = 0;
  return {
    get(key: string, now: number): Entry | undefined {
      const entry = map.get(key);
      return entry && entry.expiry > now ? entry : undefined;
    },
    set(key: string, value: Value, expiry: number): Entry {
      const found = map.get(key);
      if (found) {
        found.value = value;
        found.expiry = expiry;
        return found;
      }
      const old = slots[next];
      if (old !== undefined && map.get(old)?.slot === next) map.delete(old);
      const entry = { value, expiry, slot: next };
      slots[next] = key;
      next = (next + 1) % max;
      map.set(key, entry);
      return entry;
    },
    delete(key: string) {
      map.delete(key);
    },
    get size() {
      return map.size;
    },
  };
}

/** The ring of times of a key, fresh when absent or expired. */
function timesOf(keys: ReturnType<typeof boundedMap>, key: string, now: number, max: number): Times {
  const entry = keys.get(key, now);
  if (entry?.value.kind === 'times' && entry.value.max === max) return entry.value;
  return { kind: 'times', max, at: [], head: 0 };
}

/** Milliseconds until the ring has room again; 0 when it has room now. */
function waitOf(times: Times, max: number, windowMs: number, now: number): number {
  if (times.at.length < max) return 0;
  const oldest = times.at[times.head]!; // the slot written next holds the oldest of the last max
  return Math.max(0, oldest + windowMs - now);
}

function push(keys: ReturnType<typeof boundedMap>, key: string, times: Times, max: number, windowMs: number, now: number) {
  if (times.at.length < max) times.at.push(now);
  else {
    times.at[times.head] = now;
    times.head = (times.head + 1) % max;
  }
  keys.set(key, times, now + windowMs);
}

function countsOf(keys: ReturnType<typeof boundedMap>, key: string, now: number, buckets: number): Counts {
  const entry = keys.get(key, now);
  if (entry?.value.kind === 'counts' && entry.value.epoch.length === buckets) return entry.value;
  return { kind: 'counts', epoch: new Array<number>(buckets).fill(-1), started: new Array<number>(buckets).fill(0), completed: new Array<number>(buckets).fill(0) };
}

/** Moves the current bucket's slot to the current bucket (clearing an older one); answers its index. */
function bucketSlot(counts: Counts, epoch: number, buckets: number): number {
  const slot = epoch % buckets;
  if (counts.epoch[slot] !== epoch) {
    counts.epoch[slot] = epoch;
    counts.started[slot] = 0;
    counts.completed[slot] = 0;
  }
  return slot;
}

function sums(counts: Counts, epoch: number, buckets: number) {
  let started = 0;
  let completed = 0;
  for (let i = 0; i < buckets; i++) {
    if (counts.epoch[i]! > epoch - buckets) {
      started += counts.started[i]!;
      completed += counts.completed[i]!;
    }
  }
  return { started, completed };
}

/** True when a scope with these counts is pumping (the share never completed reached the threshold). */
export function isPumping(started: number, completed: number, minStarts: number, threshold: number): boolean {
  return started >= minStarts && started - Math.min(completed, started) >= threshold * started;
}

/**
 * The guard's windows and the flows in this process's memory. Flows started here can only be
 * continued here: for several processes, use `createRedisStore` of `@x/otp/redis`.
 *
 * @example
 * ```ts
 * import { createClient } from '@x/client';
 * import { createMemoryStore, createOtp } from '@x/otp';
 *
 * const otp = createOtp({ client: createClient(), store: createMemoryStore({ maxEntries: 50_000 }) });
 * ```
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): OtpStore & { readonly size: number } {
  const maxEntries = options.maxEntries ?? 100_000;
  if (!Number.isInteger(maxEntries) || maxEntries < 1) {
    throw new XError('invalid_options', `createMemoryStore: maxEntries is ${String(maxEntries)}: pass a positive whole number (the most keys kept at once), or leave it out.`);
  }
  const keys = boundedMap(maxEntries);
  const flowOf = (id: string, now: number) => {
    const entry = keys.get(`f:${id}`, now);
    return entry?.value.kind === 'flow' ? entry.value.record : undefined;
  };

  /** The claim of a send, without recording it. */
  const claimable = (send: SendPlan, now: number): SendClaim | FlowRecord => {
    const record = flowOf(send.id, now);
    if (!record || now >= record.expiresAt) return { ok: false, reason: 'missing', retryAfterMs: 0 };
    if (record.state !== 'pending') return { ok: false, reason: 'closed', retryAfterMs: 0 };
    if (record.sends >= send.maxSends) return { ok: false, reason: 'max', retryAfterMs: 0 };
    const wait = record.lastSendAt + send.cooldownMs - now;
    if (record.sends > 0 && wait > 0) return { ok: false, reason: 'cooldown', retryAfterMs: wait };
    return record;
  };
  const claimed = (record: FlowRecord, now: number): SendClaim => {
    record.sends += 1;
    record.lastSendAt = now;
    return { ok: true, record: { ...record } };
  };
  const createFlow = ({ record, ttlMs }: NewFlow) => {
    keys.set(`f:${record.id}`, { kind: 'flow', record: { ...record } }, record.createdAt + ttlMs);
  };

  const decide = (plan: GuardPlan, then?: { create: NewFlow } | { claim: SendPlan }): GuardVerdict | SendClaim => {
    const { now, circuit, pumping } = plan;
    const flow = then && 'claim' in then ? claimable(then.claim, now) : undefined;
    if (flow && 'ok' in flow) return flow;
    const trusted = plan.trusted || keys.get(plan.verified, now) !== undefined;
    if (circuit && !trusted) {
      const open = keys.get(circuit.key, now);
      if (open) return { allowed: false, refusal: 'circuit', retryAfterMs: open.expiry - now, opened: false };
    }
    if (pumping && !trusted) {
      for (let index = 0; index < pumping.scopes.length; index++) {
        const cooling = keys.get(pumping.scopes[index]!.cooling, now);
        if (cooling) return { allowed: false, refusal: 'cooling', index, retryAfterMs: cooling.expiry - now };
      }
    }
    const rings = plan.limits.map((limit) => timesOf(keys, limit.key, now, limit.max));
    let refused = -1;
    let retryAfterMs = 0;
    plan.limits.forEach((limit, index) => {
      const wait = waitOf(rings[index]!, limit.max, limit.windowMs, now);
      if (wait > 0 && refused < 0) refused = index;
      retryAfterMs = Math.max(retryAfterMs, wait);
    });
    if (refused >= 0) return { allowed: false, refusal: 'limit', index: refused, retryAfterMs };
    const epoch = pumping ? Math.floor(now / pumping.bucketMs) : 0;
    if (pumping?.start && !trusted) {
      for (let index = 0; index < pumping.scopes.length; index++) {
        const scope = pumping.scopes[index]!;
        const { started, completed } = sums(countsOf(keys, scope.counter, now, pumping.buckets), epoch, pumping.buckets);
        if (isPumping(started + 1, completed, scope.minStarts, scope.threshold)) {
          keys.set(scope.cooling, { kind: 'mark' }, now + pumping.coolMs);
          keys.delete(scope.counter); // the evidence is spent: after cooling, only new starts count
          return { allowed: false, refusal: 'cooling', index, retryAfterMs: pumping.coolMs, tripped: { started, completed } };
        }
      }
    }
    let budget: Times | undefined;
    if (circuit) {
      budget = timesOf(keys, circuit.budgetKey, now, circuit.max);
      if (!trusted && waitOf(budget, circuit.max, circuit.windowMs, now) > 0) {
        keys.set(circuit.key, { kind: 'mark' }, now + circuit.openMs);
        return { allowed: false, refusal: 'circuit', retryAfterMs: circuit.openMs, opened: true };
      }
    }
    plan.limits.forEach((limit, index) => push(keys, limit.key, rings[index]!, limit.max, limit.windowMs, now));
    if (circuit && budget) push(keys, circuit.budgetKey, budget, circuit.max, circuit.windowMs, now);
    if (pumping?.start) {
      for (const scope of pumping.scopes) {
        const counts = countsOf(keys, scope.counter, now, pumping.buckets);
        counts.started[bucketSlot(counts, epoch, pumping.buckets)]! += 1;
        keys.set(scope.counter, counts, now + pumping.bucketMs * pumping.buckets);
      }
    }
    if (then && 'create' in then) createFlow(then.create);
    if (flow) return claimed(flow as FlowRecord, now);
    return { allowed: true };
  };

  return {
    decide,
    complete({ now, counters, bucketMs, buckets, verified, verifiedMs }) {
      const epoch = Math.floor(now / bucketMs);
      for (const counter of counters) {
        const counts = countsOf(keys, counter, now, buckets);
        counts.completed[bucketSlot(counts, epoch, buckets)]! += 1;
        keys.set(counter, counts, now + bucketMs * buckets);
      }
      keys.set(verified, { kind: 'mark' }, now + verifiedMs);
    },
    createFlow,
    getFlow(id, now) {
      const record = flowOf(id, now);
      return record && { ...record };
    },
    claimSend(send, now) {
      const found = claimable(send, now);
      return 'ok' in found ? found : claimed(found, now);
    },
    attempt(id, now, correct, maxAttempts): AttemptOutcome {
      const record = flowOf(id, now);
      if (!record || record.state !== 'pending' || now >= record.expiresAt) return { outcome: 'expired' };
      if (record.attempts >= maxAttempts) return { outcome: 'locked' };
      if (correct) {
        record.state = 'valid';
        return { outcome: 'valid', record: { ...record } };
      }
      record.attempts += 1;
      return record.attempts >= maxAttempts ? { outcome: 'locked' } : { outcome: 'invalid', attemptsLeft: maxAttempts - record.attempts };
    },
    closeFlow(id, state) {
      const entry = keys.get(`f:${id}`, -Infinity);
      if (entry?.value.kind !== 'flow' || entry.value.record.state !== 'pending') return false;
      entry.value.record.state = state;
      return true;
    },
    updateFlow(id, fields) {
      const entry = keys.get(`f:${id}`, -Infinity);
      if (entry?.value.kind === 'flow') Object.assign(entry.value.record, fields);
    },
    deleteFlow(id) {
      keys.delete(`f:${id}`);
    },
    get size() {
      return keys.size;
    },
  };
}

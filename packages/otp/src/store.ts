// The store contract of the guard and the flow: every operation is one atomic step, so that one
// decision is one round trip on a shared store (one Lua script on Redis) and any process can go on
// with a flow another one started.

/** A sliding-window limit: at most `max` events in any `windowMs`. */
export interface WindowLimit {
  max: number;
  windowMs: number;
}

/**
 * One guard decision, as the store runs it (in this order, stopping at the first refusal):
 * an open circuit; a cooling scope (a prefix or country refused after pumping); every limit
 * (refused when `max` events already happened within its window); on a start, the pumping share of
 * each scope (trips it); the global budget (opens the circuit). When nothing refuses, the event is
 * recorded in every limit, in the global budget and, on a start, in each scope's started count.
 */
export interface GuardPlan {
  now: number;
  limits: ReadonlyArray<WindowLimit & { key: string }>;
  circuit?: (WindowLimit & { key: string; budgetKey: string; openMs: number }) | undefined;
  pumping?: PumpingPlan | undefined;
}

/** Counters of started and completed verifications per scope, in `buckets` buckets of `bucketMs`. */
export interface PumpingPlan {
  scopes: ReadonlyArray<{ counter: string; cooling: string }>;
  bucketMs: number;
  buckets: number;
  /** Fewer starts than this in the window never trip. */
  minStarts: number;
  /** Share of starts never completed, 0 to 1, at which a scope trips. */
  threshold: number;
  coolMs: number;
  /** True for a new verification (counted as started); false for a resend (cooling still applies). */
  start: boolean;
}

/** What the store answers to a plan. `index` points into `limits` or `pumping.scopes`. */
export type GuardVerdict =
  | { allowed: true }
  | { allowed: false; refusal: 'circuit'; retryAfterMs: number; opened: boolean }
  | { allowed: false; refusal: 'limit'; index: number; retryAfterMs: number }
  | { allowed: false; refusal: 'cooling'; index: number; retryAfterMs: number; tripped?: { started: number; completed: number } | undefined };

/** The state of one verification, as kept in the store. Never holds the code, only its digest. */
export interface FlowRecord {
  id: string;
  /** Digits with the country code. */
  phoneNumber: string;
  state: 'pending' | 'valid' | 'cancelled';
  /** Index into the flow's channel order of the channel of the last send. */
  channel: number;
  /** The service's reference id of the last send ('' before the first send). */
  referenceId: string;
  /** SHA-256 of the flow id and the code, when the SDK makes the codes. */
  codeDigest: string;
  createdAt: number;
  expiresAt: number;
  sends: number;
  lastSendAt: number;
  attempts: number;
  /** '' when none was given. */
  locale: string;
  ip: string;
  account: string;
}

/** What `claimSend` answers: the record after counting the send, or why not. */
export type SendClaim =
  | { ok: true; record: FlowRecord }
  | { ok: false; reason: 'missing' | 'closed' | 'cooldown' | 'max'; retryAfterMs: number };

/**
 * Where the guard's windows and the flows live. `createMemoryStore` (one process) and
 * `createRedisStore` of `@x/otp/redis` (every process sharing one Redis) implement it; each method
 * is atomic. Methods may answer synchronously or with a promise; a rejection means the store is
 * unavailable (the guard then fails closed or open, as configured).
 */
export interface OtpStore {
  decide(plan: GuardPlan): GuardVerdict | Promise<GuardVerdict>;
  /** Counts one completed verification in each counter's current bucket. */
  complete(counters: readonly string[], now: number, bucketMs: number, buckets: number): void | Promise<void>;
  createFlow(record: FlowRecord, ttlMs: number): void | Promise<void>;
  getFlow(id: string, now: number): FlowRecord | undefined | Promise<FlowRecord | undefined>;
  /** Counts a send when the flow is pending, past its cooldown and below `maxSends`. */
  claimSend(id: string, now: number, cooldownMs: number, maxSends: number): SendClaim | Promise<SendClaim>;
  /** Counts an attempt when the flow is pending; answers the record with the new count, or undefined when it is gone. */
  claimAttempt(id: string, now: number): FlowRecord | undefined | Promise<FlowRecord | undefined>;
  /** Moves a pending flow to `state`; true when it was pending (so two checks of the right code cannot both succeed). */
  closeFlow(id: string, state: 'valid' | 'cancelled'): boolean | Promise<boolean>;
  /** Writes some fields of a flow that still exists. */
  updateFlow(id: string, fields: Partial<Pick<FlowRecord, 'channel' | 'referenceId' | 'codeDigest'>>): void | Promise<void>;
  deleteFlow(id: string): void | Promise<void>;
}

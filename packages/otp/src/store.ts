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
 * an open circuit and a cooling scope (a prefix or country refused after pumping), both passed by
 * a trusted number; every limit (refused when `max` events already happened within its window);
 * for an untrusted number, on a start, the pumping share of each scope (trips it, and clears its
 * counts so that the same starts never trip it again), then the global budget (opens the
 * circuit). When nothing refuses, the event is recorded in every limit, in the global budget and,
 * on a start, in each scope's started count.
 */
export interface GuardPlan {
  now: number;
  limits: ReadonlyArray<WindowLimit & { key: string }>;
  circuit?: (WindowLimit & { key: string; budgetKey: string; openMs: number }) | undefined;
  pumping?: PumpingPlan | undefined;
  /** The mark of a number that completed a verification recently: when present, the number is trusted. */
  verified: string;
  /** The application vouches for the number: it is trusted. */
  trusted: boolean;
}

/** Counters of started and completed verifications per scope, in `buckets` buckets of `bucketMs`. */
export interface PumpingPlan {
  scopes: ReadonlyArray<{
    counter: string;
    cooling: string;
    /** Fewer starts than this in the window never trip the scope. */
    minStarts: number;
    /** Share of starts never completed, 0 to 1, at which the scope trips. */
    threshold: number;
  }>;
  bucketMs: number;
  buckets: number;
  coolMs: number;
  /** True for a new verification (counted as started); false for a resend (cooling still applies). */
  start: boolean;
}

/** What the guard records when a verification is completed. */
export interface CompletionPlan {
  now: number;
  /** Each pumping scope's counter: one completion in its current bucket. */
  counters: readonly string[];
  bucketMs: number;
  buckets: number;
  /** The number's verified mark, kept `verifiedMs`. */
  verified: string;
  verifiedMs: number;
}

/** What the store answers to a plan. `index` points into `limits` or `pumping.scopes`. */
export type GuardVerdict =
  | { allowed: true }
  | { allowed: false; refusal: 'circuit'; retryAfterMs: number; opened: boolean }
  | { allowed: false; refusal: 'limit'; index: number; retryAfterMs: number }
  | { allowed: false; refusal: 'cooling'; index: number; retryAfterMs: number; tripped?: { started: number; completed: number } | undefined };

/**
 * The state of one verification, as kept in the store. Never holds the code nor anything it can
 * be computed from without the application's secret.
 */
export interface FlowRecord {
  id: string;
  /** The canonical number: E.164 digits with the country code. */
  phoneNumber: string;
  state: 'pending' | 'valid' | 'cancelled';
  /** Index into the flow's channel order of the channel of the last send. */
  channel: number;
  /** The service's reference id of the last send ('' before it is known). */
  referenceId: string;
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

/** A flow to create when the guard allows a start, in the same step. */
export interface NewFlow {
  record: FlowRecord;
  ttlMs: number;
}

/** A send of a flow to count when the guard allows a resend, in the same step. */
export interface SendPlan {
  id: string;
  cooldownMs: number;
  maxSends: number;
}

/** What `claimSend` answers: the record after counting the send, or why not. */
export type SendClaim =
  | { ok: true; record: FlowRecord }
  | { ok: false; reason: 'missing' | 'closed' | 'cooldown' | 'max'; retryAfterMs: number };

/** What `attempt` answers. */
export type AttemptOutcome =
  | { outcome: 'valid'; record: FlowRecord }
  | { outcome: 'invalid'; attemptsLeft: number }
  | { outcome: 'locked' }
  | { outcome: 'expired' };

/**
 * Where the guard's windows and the flows live. `createMemoryStore` (one process) and
 * `createRedisStore` of `@x/otp/redis` (every process sharing one Redis) implement it; each method
 * is atomic (one round trip). Methods may answer synchronously or with a promise; a rejection (or
 * no answer within the caller's time limit) means the store is unavailable.
 */
export interface OtpStore {
  /** True when other processes share this store: flows then need the same secret in every process. */
  readonly shared?: boolean | undefined;
  /**
   * Decides one guard plan. When it allows and `then` is given, creates the flow or counts the
   * send in the same step: a refused claim answers its `SendClaim` and records nothing.
   */
  decide(plan: GuardPlan, then?: { create: NewFlow } | { claim: SendPlan }): GuardVerdict | SendClaim | Promise<GuardVerdict | SendClaim>;
  /** Counts one completed verification and marks the number verified. */
  complete(plan: CompletionPlan): void | Promise<void>;
  createFlow(flow: NewFlow): void | Promise<void>;
  getFlow(id: string, now: number): FlowRecord | undefined | Promise<FlowRecord | undefined>;
  /** Counts a send when the flow is pending, past its cooldown and below `maxSends`. */
  claimSend(plan: SendPlan, now: number): SendClaim | Promise<SendClaim>;
  /**
   * One check of a code whose verdict (`correct`) the caller computed: a pending, unexpired flow
   * below `maxAttempts` closes as valid when correct, else counts the attempt (the last allowed
   * wrong one locks it).
   */
  attempt(id: string, now: number, correct: boolean, maxAttempts: number): AttemptOutcome | Promise<AttemptOutcome>;
  /** Moves a pending flow to `state`; true when it was pending. */
  closeFlow(id: string, state: 'valid' | 'cancelled'): boolean | Promise<boolean>;
  /** Writes some fields of a flow that still exists. */
  updateFlow(id: string, fields: Partial<Pick<FlowRecord, 'channel' | 'referenceId'>>): void | Promise<void>;
  deleteFlow(id: string): void | Promise<void>;
}

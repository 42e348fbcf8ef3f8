import { FaultRuleError } from '../errors.js';
import { shown } from '../service/shape.js';

/** Statuses a status fault can answer. */
export const FAULT_STATUSES = [429, 500, 502, 503, 504] as const;
/** Statuses an html fault (a proxy's error page) can answer. Default 502. */
export const HTML_FAULT_STATUSES = [500, 502, 503, 504] as const;
/** HTTP statuses an error fault can answer: any from 400 to 599. */
export const ERROR_FAULT_STATUS = { min: 400, max: 599 } as const;
/** Service codes an error fault can carry: a whole number, positive or negative, up to 6 digits. */
export const ERROR_FAULT_CODE = { min: -999_999, max: 999_999 } as const;
/** The longest latency a fault can add: 10 minutes. */
export const MAX_LATENCY_MS = 600_000;
/** The largest Retry-After a fault can send: one day. */
export const MAX_RETRY_AFTER_SECONDS = 86_400;
/** The largest per-second limit of a rate fault. */
export const MAX_RATE_PER_SECOND = 1_000_000;
/** The window a rate fault counts requests in: one second of the emulator's clock. */
const RATE_WINDOW_MS = 1_000;

/** What a callback fault does to the callbacks it matches. */
export const CALLBACK_CHAOS = ['duplicate', 'reorder', 'late', 'drop'] as const;
export type CallbackChaos = (typeof CALLBACK_CHAOS)[number];
/** The products whose callbacks a callback fault can be limited to (`inbound`: an inbound SMS, mo_sms). */
export const CALLBACK_PRODUCTS = ['messaging', 'verify', 'voice', 'bulk_sms', 'verify_api', 'inbound'] as const;
export type CallbackProduct = (typeof CALLBACK_PRODUCTS)[number];
/** The most extra copies a duplicate callback fault sends. */
export const MAX_CALLBACK_COPIES = 10;
/** Default wait of a late intermediate status after the final one: 5 seconds (emulator clock). */
export const LATE_DEFAULT_MS = 5_000;

/** Faults to inject, for resilience tests. Each applies `times` times (default 1; Infinity for always). */
export type Fault =
  /** Hold the request this long before it is processed. A client that gives up meanwhile abandons it: nothing is processed. */
  | { type: 'latency'; ms: number }
  /** Answer this status in the product's error family (429 with its rate-limit code, 5xx "unavailable"), unprocessed. */
  | { type: 'status'; status: (typeof FAULT_STATUSES)[number]; retryAfterSeconds?: number }
  /** Answer an error body of the product's family with this service code and HTTP status, unprocessed. */
  | { type: 'error'; status: number; code: number; description?: string; retryAfterSeconds?: number }
  /** Answer an HTML error page, as a proxy or load balancer in front of the service does (not JSON), unprocessed. */
  | { type: 'html'; status?: (typeof HTML_FAULT_STATUSES)[number]; retryAfterSeconds?: number }
  /** Reset the connection before the request is read: never processed, no answer (the "never sent" branch a client may retry). */
  | { type: 'reset' }
  /** Process the request (state changes, SMS sent), then drop the connection without an answer. */
  | { type: 'drop' }
  /**
   * The service's rate limit: past `perSecond` requests in one second (the emulator's clock, a
   * sliding window) of one customer, the next are answered 429 in the product's family (10019,
   * -40007, 3204) with Retry-After (the seconds until the oldest leaves the window, at least 1,
   * or `retryAfterSeconds`), unprocessed. Each customer is counted on its own; answered 429s do
   * not count. In effect until removed (no `times` or `probability`).
   */
  | { type: 'rate'; perSecond: number; retryAfterSeconds?: number }
  /**
   * Chaos in status callbacks, as production sends them: `duplicate` sends the callback `copies`
   * more times (default 1), one after the other; `reorder` sends the earlier (intermediate)
   * status right after the final one; `late` sends it `delayMs` (emulator clock, default 5 000)
   * after the final one; `drop` loses the first attempt (never sent; the retries follow as usual).
   * `reorder` and `late` only match callbacks that have an earlier status (Messaging, Verify, Voice).
   * Every rule that matches a callback applies (drops and copies add up); a `reorder` or `late`
   * rule that could meet another one on the same callback is refused when added.
   */
  | { type: 'callback'; chaos: CallbackChaos; copies?: number; delayMs?: number; phoneNumber?: string; product?: CallbackProduct };

export type FaultType = Fault['type'];

export const FAULT_TYPES: readonly FaultType[] = ['latency', 'status', 'error', 'html', 'reset', 'drop', 'rate', 'callback'];

/** A callback fault rule (`type: 'callback'`). */
export type CallbackFaultRule = Extract<FaultRule, { type: 'callback' }>;

/** What a callback is about, for matching callback fault rules. */
export interface CallbackAbout {
  product: CallbackProduct;
  /** The number the callback is about (the recipient; the sender of an inbound SMS). */
  phoneNumber?: string | undefined;
  /** The payload of the earlier (intermediate) status, for `reorder` and `late`; absent when there is none. */
  earlier?: (() => unknown) | undefined;
}

export type FaultRule = Fault & {
  /** How many requests (callbacks, for a callback fault) it applies to: a whole number from 1, or Infinity. Default 1. */
  times?: number;
  /** Only requests with this method (letters only, any case). Not for callback faults. */
  method?: string;
  /** Only paths starting with this (from "/", visible ASCII, at most 1 024 characters). Not for callback faults. */
  path?: string;
  /** The chance it applies to a matching request, above 0 and at most 1. Default 1. A request it skips does not count against `times`. */
  probability?: number;
};

const COMMON = ['type', 'times', 'method', 'path', 'probability'];
const FIELDS: Record<FaultType, string[]> = {
  callback: ['type', 'times', 'probability', 'chaos', 'copies', 'delayMs', 'phoneNumber', 'product'],
  latency: [...COMMON, 'ms'],
  status: [...COMMON, 'status', 'retryAfterSeconds'],
  error: [...COMMON, 'status', 'code', 'description', 'retryAfterSeconds'],
  html: [...COMMON, 'status', 'retryAfterSeconds'],
  reset: COMMON,
  drop: COMMON,
  rate: ['type', 'method', 'path', 'perSecond', 'retryAfterSeconds'],
};

export const wholeNumber = (value: unknown, min: number, max: number): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;

function retryAfter(rule: Record<string, unknown>, out: Record<string, unknown>): void {
  if (rule.retryAfterSeconds === undefined) return;
  if (!wholeNumber(rule.retryAfterSeconds, 0, MAX_RETRY_AFTER_SECONDS)) {
    throw new FaultRuleError('retryAfterSeconds', `retryAfterSeconds must be a whole number of seconds from 0 to ${MAX_RETRY_AFTER_SECONDS}; got ${shown(rule.retryAfterSeconds)}.`);
  }
  out.retryAfterSeconds = rule.retryAfterSeconds;
}

/**
 * Checks every field of a fault rule and returns a clean copy (method in upper case). Throws a
 * FaultRuleError naming the first bad field: unknown fields, wrong types and out-of-range values
 * are all refused, so a rule can never make a later answer malformed.
 */
export function parseFaultRule(input: unknown): FaultRule {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new FaultRuleError('rule', `A fault rule is an object such as {"type":"status","status":503}; got ${shown(input)}.`);
  }
  const rule = input as Record<string, unknown>;
  const type = rule.type as FaultType;
  if (!FAULT_TYPES.includes(type)) {
    throw new FaultRuleError('type', `type must be one of ${FAULT_TYPES.map((t) => `"${t}"`).join(', ')}; got ${shown(type)}.`);
  }
  for (const key of Object.keys(rule)) {
    if (rule[key] !== undefined && !FIELDS[type].includes(key)) {
      throw new FaultRuleError(key, `${shown(key)} is not a field of a ${type} fault; its fields are ${FIELDS[type].join(', ')}.`);
    }
  }
  const out: Record<string, unknown> = { type };
  if (rule.times !== undefined) {
    if (rule.times !== Infinity && !wholeNumber(rule.times, 1, Number.MAX_SAFE_INTEGER)) {
      throw new FaultRuleError('times', `times must be a whole number from 1 (or Infinity, in-process, for every request); got ${shown(rule.times)}.`);
    }
    out.times = rule.times;
  }
  if (rule.method !== undefined) {
    if (typeof rule.method !== 'string' || !/^[A-Za-z]{1,16}$/.test(rule.method)) throw new FaultRuleError('method', `method must be an HTTP method such as "POST"; got ${shown(rule.method)}.`);
    out.method = rule.method.toUpperCase();
  }
  if (rule.path !== undefined) {
    if (typeof rule.path !== 'string' || !/^\/[\x21-\x7e]{0,1023}$/.test(rule.path)) {
      throw new FaultRuleError('path', `path must be a path prefix such as "/v1/verify" (from "/", visible ASCII, at most 1024 characters); got ${shown(rule.path)}.`);
    }
    out.path = rule.path;
  }
  if (rule.probability !== undefined) {
    const p = rule.probability;
    if (typeof p !== 'number' || !Number.isFinite(p) || p <= 0 || p > 1) {
      throw new FaultRuleError('probability', `probability must be a number above 0 and at most 1 (0.25: one matching request in four, at random); got ${shown(p)}.`);
    }
    out.probability = p;
  }
  if (type === 'latency') {
    if (!wholeNumber(rule.ms, 0, MAX_LATENCY_MS)) throw new FaultRuleError('ms', `ms must be a whole number of milliseconds from 0 to ${MAX_LATENCY_MS}; got ${shown(rule.ms)}.`);
    out.ms = rule.ms;
  }
  if (type === 'status') {
    if (!FAULT_STATUSES.includes(rule.status as never)) throw new FaultRuleError('status', `status must be one of ${FAULT_STATUSES.join(', ')}; got ${shown(rule.status)}.`);
    out.status = rule.status;
    retryAfter(rule, out);
  }
  if (type === 'error') {
    if (!wholeNumber(rule.status, ERROR_FAULT_STATUS.min, ERROR_FAULT_STATUS.max)) {
      throw new FaultRuleError('status', `status must be an HTTP error status, a whole number from ${ERROR_FAULT_STATUS.min} to ${ERROR_FAULT_STATUS.max}; got ${shown(rule.status)}.`);
    }
    out.status = rule.status;
    if (!wholeNumber(rule.code, ERROR_FAULT_CODE.min, ERROR_FAULT_CODE.max) || rule.code === 0) {
      throw new FaultRuleError('code', `code must be the service code to answer, a whole number other than 0 such as 10019 or -30006 (at most 6 digits); got ${shown(rule.code)}.`);
    }
    out.code = rule.code;
    if (rule.description !== undefined) {
      if (typeof rule.description !== 'string' || !/^[\x20-\x7e]{1,200}$/.test(rule.description)) {
        throw new FaultRuleError('description', `description must be 1 to 200 printable ASCII characters; got ${shown(rule.description)}.`);
      }
      out.description = rule.description;
    }
    retryAfter(rule, out);
  }
  if (type === 'callback') callbackFields(rule, out);
  if (type === 'rate') {
    if (!wholeNumber(rule.perSecond, 1, MAX_RATE_PER_SECOND)) {
      throw new FaultRuleError('perSecond', `perSecond must be a whole number of requests from 1 to ${MAX_RATE_PER_SECOND} (per customer, per second); got ${shown(rule.perSecond)}.`);
    }
    out.perSecond = rule.perSecond;
    retryAfter(rule, out);
  }
  if (type === 'html') {
    if (rule.status !== undefined) {
      if (!HTML_FAULT_STATUSES.includes(rule.status as never)) throw new FaultRuleError('status', `status must be one of ${HTML_FAULT_STATUSES.join(', ')} (default 502); got ${shown(rule.status)}.`);
      out.status = rule.status;
    }
    retryAfter(rule, out);
  }
  return out as FaultRule;
}

/** The digits of a number, for matching by number or prefix ("+1 555-555" matches 15555550100). */
export const digitsOf = (phoneNumber: string): string => phoneNumber.replace(/\D/g, '');

function callbackFields(rule: Record<string, unknown>, out: Record<string, unknown>): void {
  if (!CALLBACK_CHAOS.includes(rule.chaos as never)) throw new FaultRuleError('chaos', `chaos must be one of ${CALLBACK_CHAOS.map((c) => `"${c}"`).join(', ')}; got ${shown(rule.chaos)}.`);
  out.chaos = rule.chaos;
  if (rule.copies !== undefined) {
    if (rule.chaos !== 'duplicate') throw new FaultRuleError('copies', `copies is for chaos "duplicate" only (how many extra copies); got it with "${String(rule.chaos)}".`);
    if (!wholeNumber(rule.copies, 1, MAX_CALLBACK_COPIES)) throw new FaultRuleError('copies', `copies must be a whole number from 1 to ${MAX_CALLBACK_COPIES} (extra copies sent after the callback); got ${shown(rule.copies)}.`);
    out.copies = rule.copies;
  }
  if (rule.delayMs !== undefined) {
    if (rule.chaos !== 'late') throw new FaultRuleError('delayMs', `delayMs is for chaos "late" only (how long after the final status the earlier one arrives); got it with "${String(rule.chaos)}".`);
    if (!wholeNumber(rule.delayMs, 0, MAX_LATENCY_MS)) throw new FaultRuleError('delayMs', `delayMs must be a whole number of milliseconds from 0 to ${MAX_LATENCY_MS}; got ${shown(rule.delayMs)}.`);
    out.delayMs = rule.delayMs;
  }
  if (rule.phoneNumber !== undefined) {
    if (typeof rule.phoneNumber !== 'string' || !/^\+?[0-9][0-9 ().-]{0,31}$/.test(rule.phoneNumber)) {
      throw new FaultRuleError('phoneNumber', `phoneNumber must be a number or its first digits, such as "15555550100" or "1555" (the callbacks about numbers that start with them); got ${shown(rule.phoneNumber)}.`);
    }
    out.phoneNumber = digitsOf(rule.phoneNumber);
  }
  if (rule.product !== undefined) {
    if (!CALLBACK_PRODUCTS.includes(rule.product as never)) throw new FaultRuleError('product', `product must be one of ${CALLBACK_PRODUCTS.map((p) => `"${p}"`).join(', ')}; got ${shown(rule.product)}.`);
    out.product = rule.product;
  }
}

export interface FaultsOptions {
  /** Random numbers in [0, 1) for `probability`. Default `Math.random`. */
  random?: () => number;
  /** Called after every change of the rules (added, used up, removed, cleared). */
  onChange?: () => void;
}

const EARLIER: readonly CallbackChaos[] = ['reorder', 'late'];

/** Whether two callback rules can match one callback: their products and number prefixes overlap. */
function overlap(a: CallbackFaultRule, b: CallbackFaultRule): boolean {
  if (a.product && b.product && a.product !== b.product) return false;
  return !a.phoneNumber || !b.phoneNumber || a.phoneNumber.startsWith(b.phoneNumber) || b.phoneNumber.startsWith(a.phoneNumber);
}

/**
 * Callback rules compose: every rule that matches a callback applies (drops add up, copies add up,
 * and the earlier status follows). Two rules that both send the earlier status after the final
 * one (`reorder`, `late`) have no single meaning together, so one that could meet another on the
 * same callback is refused.
 */
function refuseClash(rule: CallbackFaultRule, rules: readonly FaultRule[]): void {
  if (!EARLIER.includes(rule.chaos)) return;
  const index = rules.findIndex((other) => other.type === 'callback' && EARLIER.includes(other.chaos) && overlap(rule, other));
  if (index < 0) return;
  const other = rules[index] as CallbackFaultRule;
  const kinds = [rule.chaos, other.chaos].sort();
  throw new FaultRuleError(
    'chaos',
    `A "${rule.chaos}" rule cannot join the ${other.chaos === rule.chaos ? 'other' : `"${other.chaos}"`} rule at index ${index}: they can apply to the same callback, and ${kinds[0] === kinds[1] ? `two "${kinds[0]}" rules both send` : `"${kinds[0]}" and "${kinds[1]}" both send`} the earlier status after the final one (once, at one time). Remove that rule first (DELETE /_emulator/faults/${index}), or give the rules numbers (phoneNumber) or products that do not overlap.`,
  );
}

export class Faults {
  /** Each rule with the uses it has left; a rate rule with the times of each customer's admitted requests in its window. */
  private rules: Array<FaultRule & { left: number; admitted?: Map<string, number[]> }> = [];
  private readonly random: () => number;
  private readonly onChange: () => void;

  constructor(options: FaultsOptions = {}) {
    this.random = options.random ?? Math.random;
    this.onChange = options.onChange ?? (() => undefined);
  }

  /** Adds a rule after checking every field; a bad rule throws a FaultRuleError and changes nothing. */
  add(rule: FaultRule): void {
    const clean = parseFaultRule(rule);
    if (clean.type === 'callback') refuseClash(clean, this.rules);
    this.rules.push(clean.type === 'rate' ? { ...clean, left: Infinity, admitted: new Map() } : { ...clean, left: clean.times ?? 1 });
    this.onChange();
  }

  /** Removes the rule at this position of `list()` (0 is the first); false when there is none. */
  remove(index: number): boolean {
    if (!Number.isInteger(index) || index < 0 || index >= this.rules.length) return false;
    this.rules.splice(index, 1);
    this.onChange();
    return true;
  }

  clear(): void {
    const had = this.rules.length > 0;
    this.rules = [];
    if (had) this.onChange();
  }

  /** The rules in the order they are matched, `times` being what is left of each. */
  list(): FaultRule[] {
    return this.rules.map(({ left, admitted: _admitted, ...rule }) => (rule.type === 'rate' ? rule : { ...rule, times: left }));
  }

  /** How many rules are active. */
  get size(): number {
    return this.rules.length;
  }

  /**
   * Takes the first rule of a type that matches the request and, by its probability, applies;
   * counts one use. A rule whose draw fails is passed over (not counted) and the next is tried.
   */
  take<T extends Exclude<FaultType, 'callback'>>(type: T, method: string, path: string): Extract<FaultRule, { type: T }> | undefined {
    for (let index = 0; index < this.rules.length; index++) {
      const rule = this.rules[index]!;
      if (rule.type !== type || (rule.method && rule.method !== method) || (rule.path && !path.startsWith(rule.path))) continue;
      if (rule.probability !== undefined && rule.probability < 1 && !(this.random() < rule.probability)) continue;
      if (--rule.left <= 0) this.rules.splice(index, 1);
      this.onChange();
      const { left: _left, ...taken } = rule;
      return taken as Extract<FaultRule, { type: T }>;
    }
    return undefined;
  }

  /**
   * Takes every callback rule that matches a callback (its product, its number, an earlier status
   * for `reorder` and `late`), in order, each by its probability and counting one use: they compose
   * (the callback sender adds up drops and copies, then sends the earlier status).
   */
  takeCallbacks(about: CallbackAbout): CallbackFaultRule[] {
    let digits: string | undefined;
    const taken: CallbackFaultRule[] = [];
    for (let index = 0; index < this.rules.length; index++) {
      const rule = this.rules[index]!;
      if (rule.type !== 'callback' || (rule.product && rule.product !== about.product)) continue;
      if ((rule.chaos === 'reorder' || rule.chaos === 'late') && !about.earlier) continue;
      if (rule.phoneNumber && !(about.phoneNumber !== undefined && (digits ??= digitsOf(about.phoneNumber)).startsWith(rule.phoneNumber))) continue;
      if (rule.probability !== undefined && rule.probability < 1 && !(this.random() < rule.probability)) continue;
      if (--rule.left <= 0) this.rules.splice(index--, 1);
      const { left: _left, ...copy } = rule;
      taken.push(copy as CallbackFaultRule);
    }
    if (taken.length) this.onChange();
    return taken;
  }

  /**
   * Counts a request of a customer against every rate rule that matches it (method, path): when one
   * of them has already admitted `perSecond` of this customer's requests within the last second of
   * `now`, the request is refused (and counted nowhere): that rule's limit and the Retry-After to
   * answer; else it is admitted by each. Memory: at most `perSecond` times per customer and rule,
   * for the customers that authenticated.
   */
  limit(method: string, path: string, customerId: string, now: number): { perSecond: number; retryAfterSeconds: number } | undefined {
    const matching = this.rules.filter((rule) => rule.type === 'rate' && (!rule.method || rule.method === method) && (!rule.path || path.startsWith(rule.path)));
    const windows: number[][] = [];
    for (const rule of matching) {
      const admitted = rule.admitted!;
      let times = admitted.get(customerId);
      if (!times) admitted.set(customerId, (times = []));
      while (times.length && times[0]! <= now - RATE_WINDOW_MS) times.shift();
      const { perSecond, retryAfterSeconds } = rule as Extract<FaultRule, { type: 'rate' }>;
      if (times.length >= perSecond) return { perSecond, retryAfterSeconds: retryAfterSeconds ?? Math.max(1, Math.ceil((times[0]! + RATE_WINDOW_MS - now) / 1000)) };
      windows.push(times);
    }
    for (const times of windows) times.push(now);
    return undefined;
  }
}

import { FaultRuleError } from './errors.js';

/** Statuses a status fault can answer. */
export const FAULT_STATUSES = [429, 500, 502, 503, 504] as const;
/** The longest latency a fault can add: 10 minutes. */
export const MAX_LATENCY_MS = 600_000;
/** The largest Retry-After a status fault can send: one day. */
export const MAX_RETRY_AFTER_SECONDS = 86_400;

/** Faults to inject, for resilience tests. Each applies `times` times (default 1; Infinity for always). */
export type Fault =
  /** Hold the request this long before it is processed. A client that gives up meanwhile abandons it: nothing is processed. */
  | { type: 'latency'; ms: number }
  | { type: 'status'; status: (typeof FAULT_STATUSES)[number]; retryAfterSeconds?: number }
  /** Process the request (state changes, SMS sent), then drop the connection without an answer. */
  | { type: 'drop' };

export type FaultRule = Fault & {
  /** How many requests it applies to: a whole number from 1, or Infinity. Default 1. */
  times?: number;
  /** Only requests with this method (letters only, any case). */
  method?: string;
  /** Only paths starting with this (from "/", visible ASCII, at most 1 024 characters). */
  path?: string;
};

const COMMON = ['type', 'times', 'method', 'path'];
const FIELDS: Record<Fault['type'], string[]> = {
  latency: [...COMMON, 'ms'],
  status: [...COMMON, 'status', 'retryAfterSeconds'],
  drop: COMMON,
};

/** A short, printable picture of a value for an error message (never the whole of a long string). */
function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value).replace(/[^\x20-\x7e]/g, '?');
  if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined) return String(value);
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}

const wholeNumber = (value: unknown, min: number, max: number): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;

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
  const type = rule.type;
  if (type !== 'latency' && type !== 'status' && type !== 'drop') {
    throw new FaultRuleError('type', `type must be "latency", "status" or "drop"; got ${shown(type)}.`);
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
  if (type === 'latency') {
    if (!wholeNumber(rule.ms, 0, MAX_LATENCY_MS)) throw new FaultRuleError('ms', `ms must be a whole number of milliseconds from 0 to ${MAX_LATENCY_MS}; got ${shown(rule.ms)}.`);
    out.ms = rule.ms;
  }
  if (type === 'status') {
    if (!FAULT_STATUSES.includes(rule.status as never)) throw new FaultRuleError('status', `status must be one of ${FAULT_STATUSES.join(', ')}; got ${shown(rule.status)}.`);
    out.status = rule.status;
    if (rule.retryAfterSeconds !== undefined) {
      if (!wholeNumber(rule.retryAfterSeconds, 0, MAX_RETRY_AFTER_SECONDS)) {
        throw new FaultRuleError('retryAfterSeconds', `retryAfterSeconds must be a whole number of seconds from 0 to ${MAX_RETRY_AFTER_SECONDS}; got ${shown(rule.retryAfterSeconds)}.`);
      }
      out.retryAfterSeconds = rule.retryAfterSeconds;
    }
  }
  return out as FaultRule;
}

export class Faults {
  private rules: Array<FaultRule & { left: number }> = [];

  /** Adds a rule after checking every field; a bad rule throws a FaultRuleError and changes nothing. */
  add(rule: FaultRule): void {
    const clean = parseFaultRule(rule);
    this.rules.push({ ...clean, left: clean.times ?? 1 });
  }

  clear(): void {
    this.rules = [];
  }

  list(): FaultRule[] {
    return this.rules.map(({ left, ...rule }) => ({ ...rule, times: left }));
  }

  /** How many rules are active (0: the request path skips fault matching). */
  get size(): number {
    return this.rules.length;
  }

  /** Takes the first matching rule of a type, counting one use. */
  take<T extends Fault['type']>(type: T, method: string, path: string): Extract<FaultRule, { type: T }> | undefined {
    const index = this.rules.findIndex((r) => r.type === type && (!r.method || r.method === method) && (!r.path || path.startsWith(r.path)));
    if (index < 0) return undefined;
    const rule = this.rules[index]!;
    if (--rule.left <= 0) this.rules.splice(index, 1);
    return rule as unknown as Extract<FaultRule, { type: T }>;
  }
}

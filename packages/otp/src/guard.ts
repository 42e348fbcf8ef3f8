// The guard: one decision before any send, in one store round trip.
import { XError } from '@x/auth';
import { createMemoryStore } from './memory.js';
import { phoneDigits } from './number.js';
import type { GuardPlan, OtpStore, PumpingPlan, WindowLimit } from './store.js';

/** What a limit counts sends per. `prefix` is the number without its last `rangeDigits` digits. */
export type LimitScope = 'phone' | 'ip' | 'prefix' | 'country' | 'account';

/** Why a send was refused. */
export type RefusalReason =
  | 'invalid_number'
  | 'invalid_ip'
  | 'country_denied'
  | 'phone_limit'
  | 'ip_limit'
  | 'prefix_limit'
  | 'country_limit'
  | 'account_limit'
  | 'circuit_open'
  | 'pumping'
  | 'store_unavailable';

/** A refused decision: never thrown, always answered. `retryAfterMs` is 0 when waiting does not help. */
export interface Refusal<R extends string = RefusalReason> {
  allowed: false;
  reason: R;
  retryAfterMs: number;
}

export type GuardDecision =
  | {
      allowed: true;
      /** The number's country (ISO 3166 alpha-2) when `countryOf` is set. */
      country?: string | undefined;
      /** True when the store could not be reached and `failOpen` let the send through unchecked. */
      degraded?: true | undefined;
    }
  | Refusal;

/** Something the application may want to log. Never carries a code or a whole phone number. */
export type GuardEvent =
  | { type: 'pumping'; scope: 'prefix' | 'country'; value: string; started: number; completed: number; coolMs: number }
  | { type: 'circuit_open'; maxPerMinute: number; openMs: number }
  | { type: 'store_unavailable'; failOpen: boolean; error: unknown };

export interface PumpingOptions {
  /** Share of started verifications never completed, 0 to 1, at which a prefix or country is refused. Default 0.8. */
  threshold?: number | undefined;
  /** Fewer starts than this in the window never trip. Default 30. */
  minStarts?: number | undefined;
  /** Window over which starts and completions are counted. Default 1 hour. */
  windowMs?: number | undefined;
  /** How long a tripped prefix or country is refused. Default 1 hour. */
  coolMs?: number | undefined;
}

export interface GuardOptions {
  /** Where windows live. Default: a new `createMemoryStore()` (one process). */
  store?: OtpStore | undefined;
  /** Limits per scope; `false` turns one off. Defaults in `DEFAULT_LIMITS`. */
  limits?: Partial<Record<LimitScope, WindowLimit | false>> | undefined;
  /** Sends per minute across everything beyond which the circuit opens (every send refused) for `openMs` (default 5 minutes). Off by default. */
  budget?: { maxPerMinute: number; openMs?: number | undefined } | undefined;
  /** Country lists (ISO 3166 alpha-2). With `allow`, every other country is refused. Need `countryOf`. */
  countries?: { allow?: readonly string[] | undefined; deny?: readonly string[] | undefined } | undefined;
  /** The country of a number's digits (`countryOf` of `@x/otp/phone`); undefined when unknown (refused as `invalid_number`). */
  countryOf?: ((digits: string) => string | undefined) | undefined;
  /** Trailing digits that vary within a number range (prefix). Default 3 (ranges of 1 000 numbers). */
  rangeDigits?: number | undefined;
  /** The pumping detector per prefix and per country; `false` turns it off. */
  pumping?: PumpingOptions | false | undefined;
  /** When the store cannot be reached: refuse (`store_unavailable`, the default) or, with true, allow unchecked. */
  failOpen?: boolean | undefined;
  onEvent?: ((event: GuardEvent) => void) | undefined;
  /** Clock, for tests. Default `Date.now`. */
  now?: (() => number) | undefined;
}

/** What the guard is asked before a send. */
export interface GuardRequest {
  /** Digits with the country code; "+", spaces, dashes, dots and parentheses are allowed. */
  phoneNumber: string;
  /** The end user's IP address. */
  ip?: string | undefined;
  /** Your id of the end user's account. */
  account?: string | undefined;
  /** True for another send of a started verification: limits and cooling apply, it does not count as started. */
  resend?: boolean | undefined;
}

export interface Guard {
  /** Decides one send; allowed sends are counted. Never throws on what a user sent. */
  check(request: GuardRequest): Promise<GuardDecision>;
  /** Records that a verification of this number was completed (the pumping detector's other half). */
  completed(phoneNumber: string): Promise<void>;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Default limits per scope (country: off, set one for your traffic). */
export const DEFAULT_LIMITS: Readonly<Record<LimitScope, WindowLimit | false>> = {
  phone: { max: 5, windowMs: 10 * MINUTE },
  ip: { max: 20, windowMs: 10 * MINUTE },
  prefix: { max: 50, windowMs: 10 * MINUTE },
  country: false,
  account: { max: 10, windowMs: 10 * MINUTE },
};
const SCOPES: readonly LimitScope[] = ['phone', 'ip', 'prefix', 'country', 'account'];
const PUMPING_BUCKETS = 10;
/** Key letter per scope (distinct: a range's digits can equal a shorter number's). */
const KEY: Readonly<Record<LimitScope, string>> = { phone: 'n', ip: 'i', prefix: 'r', country: 'c', account: 'a' };

const fail = (message: string): never => {
  throw new XError('invalid_options', message);
};
const positive = (value: unknown, name: string) => {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) fail(`createGuard: ${name} is ${String(value)}: pass a positive whole number.`);
  return value as number;
};
const countryList = (list: readonly string[] | undefined, name: string) => {
  if (list === undefined) return undefined;
  if (!Array.isArray(list) || list.some((c) => typeof c !== 'string' || !/^[A-Za-z]{2}$/.test(c))) fail(`createGuard: countries.${name} must be ISO 3166 alpha-2 codes, e.g. ['US', 'GB'].`);
  return new Set(list.map((c) => c.toUpperCase()));
};

/**
 * A guard against SMS pumping and abuse, to ask before every send (the flow of `createOtp` asks
 * it itself). It refuses, with a reason and the time after which trying again can help:
 * numbers that are not 8 to 15 digits, countries outside the lists, sends beyond a sliding-window
 * limit per number, IP, number range, country or account, every send while the global budget's
 * circuit is open, and number ranges and countries where too many verifications were started and
 * never completed. Each decision is one store operation.
 *
 * @example
 * ```ts
 * import { createGuard } from '@x/otp';
 * import { countryOf } from '@x/otp/phone';
 *
 * const guard = createGuard({ countryOf, countries: { deny: ['XK'] }, budget: { maxPerMinute: 600 }, onEvent: (e) => log(e) });
 * const decision = await guard.check({ phoneNumber: '+44 7400 123456', ip: '203.0.113.7' });
 * if (!decision.allowed) log('refused', decision.reason, 'try again in', decision.retryAfterMs, 'ms');
 * ```
 */
export function createGuard(options: GuardOptions = {}): Guard {
  const store = options.store ?? createMemoryStore();
  const now = options.now ?? Date.now;
  const onEvent = options.onEvent ?? (() => {});
  const rangeDigits = options.rangeDigits ?? 3;
  if (!Number.isInteger(rangeDigits) || rangeDigits < 0 || rangeDigits > 6) fail(`createGuard: rangeDigits is ${String(rangeDigits)}: pass 0 to 6.`);
  const limits = SCOPES.flatMap((scope) => {
    const limit = options.limits?.[scope] === undefined ? DEFAULT_LIMITS[scope] : options.limits[scope];
    if (limit === false) return [];
    return [{ scope, max: positive(limit?.max, `limits.${scope}.max`), windowMs: positive(limit?.windowMs, `limits.${scope}.windowMs`) }];
  });
  const allow = countryList(options.countries?.allow, 'allow');
  const deny = countryList(options.countries?.deny, 'deny');
  const countryOf = options.countryOf;
  if ((allow || deny || limits.some((l) => l.scope === 'country')) && typeof countryOf !== 'function') {
    fail("createGuard: country lists and limits need countryOf, e.g. import { countryOf } from '@x/otp/phone'.");
  }
  const budget = options.budget && {
    max: positive(options.budget.maxPerMinute, 'budget.maxPerMinute'),
    openMs: positive(options.budget.openMs ?? 5 * MINUTE, 'budget.openMs'),
  };
  const pumping = options.pumping === false ? undefined : {
    threshold: options.pumping?.threshold ?? 0.8,
    minStarts: positive(options.pumping?.minStarts ?? 30, 'pumping.minStarts'),
    windowMs: positive(options.pumping?.windowMs ?? HOUR, 'pumping.windowMs'),
    coolMs: positive(options.pumping?.coolMs ?? HOUR, 'pumping.coolMs'),
  };
  if (pumping && !(pumping.threshold > 0 && pumping.threshold <= 1)) fail(`createGuard: pumping.threshold is ${String(pumping.threshold)}: pass a share above 0 and at most 1, e.g. 0.8.`);
  const bucketMs = pumping ? Math.max(1, Math.ceil(pumping.windowMs / PUMPING_BUCKETS)) : 1;

  /** The pumping scopes of a number: its range, and its country when known. */
  const scopesOf = (digits: string, country: string | undefined) => {
    const scopes: Array<{ scope: 'prefix' | 'country'; value: string; counter: string; cooling: string }> = [];
    const prefix = digits.slice(0, digits.length - rangeDigits);
    scopes.push({ scope: 'prefix', value: prefix, counter: `pr:${prefix}`, cooling: `pr!:${prefix}` });
    if (country) scopes.push({ scope: 'country', value: country, counter: `pc:${country}`, cooling: `pc!:${country}` });
    return scopes;
  };

  const unavailable = (error: unknown, country: string | undefined): GuardDecision => {
    onEvent({ type: 'store_unavailable', failOpen: options.failOpen === true, error });
    return options.failOpen ? { allowed: true, country, degraded: true } : { allowed: false, reason: 'store_unavailable', retryAfterMs: 0 };
  };

  return {
    async check(request) {
      const digits = phoneDigits(request?.phoneNumber);
      if (!digits) return { allowed: false, reason: 'invalid_number', retryAfterMs: 0 };
      const ip = request.ip;
      if (ip !== undefined && (typeof ip !== 'string' || ip.length > 64)) return { allowed: false, reason: 'invalid_ip', retryAfterMs: 0 };
      const account = request.account;
      if (account !== undefined && (typeof account !== 'string' || account.length > 256)) {
        throw new XError('invalid_request', 'guard.check: account must be your id of the account, a string of at most 256 characters.');
      }
      const country = countryOf?.(digits)?.toUpperCase();
      if (countryOf && !country) return { allowed: false, reason: 'invalid_number', retryAfterMs: 0 };
      if (country && ((allow && !allow.has(country)) || deny?.has(country))) return { allowed: false, reason: 'country_denied', retryAfterMs: 0 };

      const values: Record<LimitScope, string | undefined> = { phone: digits, ip, prefix: digits.slice(0, digits.length - rangeDigits), country, account };
      const active = limits.filter((limit) => values[limit.scope] !== undefined);
      const scopes = pumping ? scopesOf(digits, country) : [];
      const at = now();
      const plan: GuardPlan = {
        now: at,
        limits: active.map((limit) => ({ key: `${KEY[limit.scope]}:${values[limit.scope]}`, max: limit.max, windowMs: limit.windowMs })),
        circuit: budget && { key: 'g!', budgetKey: 'g', max: budget.max, windowMs: MINUTE, openMs: budget.openMs },
        pumping: pumping && ({ scopes, bucketMs, buckets: PUMPING_BUCKETS, minStarts: pumping.minStarts, threshold: pumping.threshold, coolMs: pumping.coolMs, start: !request.resend } satisfies PumpingPlan),
      };
      let verdict;
      try {
        verdict = await store.decide(plan);
      } catch (error) {
        return unavailable(error, country);
      }
      if (verdict.allowed) return { allowed: true, country };
      if (verdict.refusal === 'limit') return { allowed: false, reason: `${active[verdict.index]!.scope}_limit`, retryAfterMs: verdict.retryAfterMs };
      if (verdict.refusal === 'circuit') {
        if (verdict.opened && budget) onEvent({ type: 'circuit_open', maxPerMinute: budget.max, openMs: budget.openMs });
        return { allowed: false, reason: 'circuit_open', retryAfterMs: verdict.retryAfterMs };
      }
      const scope = scopes[verdict.index];
      if (verdict.tripped && scope && pumping) {
        onEvent({ type: 'pumping', scope: scope.scope, value: scope.value, started: verdict.tripped.started, completed: verdict.tripped.completed, coolMs: pumping.coolMs });
      }
      return { allowed: false, reason: 'pumping', retryAfterMs: verdict.retryAfterMs };
    },
    async completed(phoneNumber) {
      const digits = phoneDigits(phoneNumber);
      if (!digits || !pumping) return;
      const country = countryOf?.(digits)?.toUpperCase();
      try {
        await store.complete(scopesOf(digits, country).map((s) => s.counter), now(), bucketMs, PUMPING_BUCKETS);
      } catch (error) {
        onEvent({ type: 'store_unavailable', failOpen: options.failOpen === true, error });
      }
    },
  };
}

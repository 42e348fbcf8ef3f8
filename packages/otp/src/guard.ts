// The guard: one decision before any send, in one store round trip.
import { XError } from '@x/auth';
import { createMemoryStore } from './memory.js';
import { bounded } from './bounded.js';
import { canonicalIp } from './ip.js';
import { canonicalNumber, type CanonicalNumber } from './number.js';
import { hashedName, macOf } from './secret.js';
import type { CompletionPlan, GuardPlan, GuardVerdict, OtpStore, PumpingPlan, WindowLimit } from './store.js';

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

/** When one scope of the pumping detector trips. */
export interface PumpingScopeOptions {
  /** Fewer starts than this in the window never trip the scope. */
  minStarts?: number | undefined;
  /** Share of started verifications never completed, above 0 and at most 1, at which the scope trips. */
  threshold?: number | undefined;
}

/**
 * The pumping detector: a number range (`prefix`) or a country where too many verifications are
 * started and never completed is refused for `coolMs`. A country trips only on evidence in
 * proportion to its own traffic (by default 1 000 starts in the window, 90 % never completed),
 * far above a range's (30 starts, 80 %). Numbers that completed a verification within
 * `trustVerifiedMs`, and starts the application marks `trusted`, pass a cooling scope and are never
 * counted towards a trip. A trip spends its evidence: after cooling, only new starts count.
 */
export interface PumpingOptions {
  /** Per range of numbers; `false` turns it off. Default `{ minStarts: 30, threshold: 0.8 }`. */
  prefix?: PumpingScopeOptions | false | undefined;
  /** Per country (needs the number's country); `false` turns it off. Default `{ minStarts: 1000, threshold: 0.9 }`. */
  country?: PumpingScopeOptions | false | undefined;
  /** Window over which starts and completions are counted. Default 1 hour. */
  windowMs?: number | undefined;
  /** How long a tripped range or country is refused. Default 1 hour. */
  coolMs?: number | undefined;
  /** How long a number that completed a verification is trusted (passes a cooling scope and an open circuit). Default 30 days. */
  trustVerifiedMs?: number | undefined;
}

export interface GuardOptions {
  /** Where windows live. Default: a new `createMemoryStore()` (one process). */
  store?: OtpStore | undefined;
  /** Limits per scope; `false` turns one off. Defaults in `DEFAULT_LIMITS`. */
  limits?: Partial<Record<LimitScope, WindowLimit | false>> | undefined;
  /** Sends per minute across everything beyond which the circuit opens for `openMs` (default 5 minutes): every send to a number that is not trusted is refused. Off by default. */
  budget?: { maxPerMinute: number; openMs?: number | undefined } | undefined;
  /** Country lists (ISO 3166 alpha-2). With `allow`, every other country (and a number whose country is unknown) is refused. */
  countries?: { allow?: readonly string[] | undefined; deny?: readonly string[] | undefined } | undefined;
  /** The country of a number's canonical digits. Default: the numbering plan's (libphonenumber-js). */
  countryOf?: ((digits: string) => string | undefined) | undefined;
  /** The country a number written without "+" is read in ("07700 900123" with 'GB'). Default: none (such a number is read as digits with the country code). */
  defaultCountry?: string | undefined;
  /** Trailing digits that vary within a number range (prefix). Default 3 (ranges of 1 000 numbers). */
  rangeDigits?: number | undefined;
  /** Bits of an IPv6 address that name one client (its network). Default 64. */
  ipv6Prefix?: number | undefined;
  /** The pumping detector; `false` turns it off. */
  pumping?: PumpingOptions | false | undefined;
  /** When the store fails or does not answer in time: refuse (`store_unavailable`, the default) or, with true, allow unchecked. */
  failOpen?: boolean | undefined;
  /** Time limit of each store call, in milliseconds. Default 1 000. */
  storeTimeoutMs?: number | undefined;
  /**
   * A secret (at least 32 characters or bytes): when given, numbers, ranges, IPs and accounts in
   * the store's key names are keyed hashes under it (the same secret in every process), so the
   * store's keys do not list who asked.
   */
  hashKeys?: string | Uint8Array | undefined;
  onEvent?: ((event: GuardEvent) => void) | undefined;
  /** Clock, for tests. Default `Date.now`, read at each call. */
  now?: (() => number) | undefined;
}

/** What the guard is asked before a send. */
export interface GuardRequest {
  /** The number in any spelling: international ("+44 (0)7700 900123"), digits with the country code, or national with `defaultCountry`. */
  phoneNumber: string;
  /** The end user's IP address, one address (see the README for taking it from a proxy's header). */
  ip?: string | undefined;
  /** Your id of the end user's account. */
  account?: string | undefined;
  /** True for another send of a started verification: limits and cooling apply, it does not count as started. */
  resend?: boolean | undefined;
  /** True when you vouch for the number (an existing customer's): it passes a cooling range or country and an open circuit. Limits still apply. */
  trusted?: boolean | undefined;
}

export interface Guard {
  /** Decides one send; allowed sends are counted. Never throws on what a user sent. */
  check(request: GuardRequest): Promise<GuardDecision>;
  /** Records that a verification of this number was completed (the pumping detector's other half; the number is then trusted). */
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
const share = (value: unknown, name: string) => {
  if (typeof value !== 'number' || !(value > 0 && value <= 1)) fail(`createGuard: ${name} is ${String(value)}: pass a share above 0 and at most 1, e.g. 0.8.`);
  return value as number;
};
const countryList = (list: readonly string[] | undefined, name: string) => {
  if (list === undefined) return undefined;
  if (!Array.isArray(list) || list.some((c) => typeof c !== 'string' || !/^[A-Za-z]{2}$/.test(c))) fail(`createGuard: countries.${name} must be ISO 3166 alpha-2 codes, e.g. ['US', 'GB'].`);
  return new Set(list.map((c) => c.toUpperCase()));
};
const scopeOf = (options: PumpingScopeOptions | false | undefined, defaults: { minStarts: number; threshold: number }, name: string) =>
  options === false ? undefined : {
    minStarts: positive(options?.minStarts ?? defaults.minStarts, `pumping.${name}.minStarts`),
    threshold: share(options?.threshold ?? defaults.threshold, `pumping.${name}.threshold`),
  };

/** A request the guard read: the canonical number and client, and the plan for the store. */
export interface Prepared {
  digits: string;
  country: string | undefined;
  plan: GuardPlan;
  scopes: ReadonlyArray<{ scope: 'prefix' | 'country'; value: string }>;
  active: readonly LimitScope[];
}

/** The guard's logic without its I/O: what `createGuard` and `createOtp` run over a store. */
export interface GuardCore {
  store: OtpStore;
  now: () => number;
  storeTimeoutMs: number;
  /** Canonical forms, lists and the plan; a refusal for what is not a number or one address. */
  prepare(request: GuardRequest): Promise<Prepared | Refusal>;
  /** The decision a verdict gives, with its events. */
  interpret(prepared: Prepared, verdict: GuardVerdict): GuardDecision;
  /** The decision when the store failed, with its event. */
  unavailable(error: unknown, country: string | undefined): GuardDecision;
  /** What a completed verification of `digits` records. */
  completion(digits: string, country: string | undefined): Promise<CompletionPlan>;
  /** The canonical number of any spelling, as the guard reads it. */
  canonical(phoneNumber: unknown): CanonicalNumber | undefined;
}

/** Reads the options once; see `createGuard`. */
export function guardCore(options: GuardOptions = {}): GuardCore {
  const store = options.store ?? createMemoryStore();
  const clock = options.now;
  const now = clock ?? (() => Date.now());
  const onEvent = options.onEvent ?? (() => {});
  const rangeDigits = options.rangeDigits ?? 3;
  if (!Number.isInteger(rangeDigits) || rangeDigits < 0 || rangeDigits > 6) fail(`createGuard: rangeDigits is ${String(rangeDigits)}: pass 0 to 6.`);
  const ipv6Prefix = options.ipv6Prefix ?? 64;
  if (!Number.isInteger(ipv6Prefix) || ipv6Prefix < 32 || ipv6Prefix > 128) fail(`createGuard: ipv6Prefix is ${String(ipv6Prefix)}: pass 32 to 128 (64, one client's network, is the default).`);
  const storeTimeoutMs = positive(options.storeTimeoutMs ?? 1000, 'storeTimeoutMs');
  const defaultCountry = options.defaultCountry?.toUpperCase();
  if (defaultCountry !== undefined && !/^[A-Z]{2}$/.test(defaultCountry)) fail(`createGuard: defaultCountry is ${JSON.stringify(options.defaultCountry)}: pass an ISO 3166 alpha-2 code such as 'GB'.`);
  const limits = SCOPES.flatMap((scope) => {
    const limit = options.limits?.[scope] === undefined ? DEFAULT_LIMITS[scope] : options.limits[scope];
    if (limit === false) return [];
    return [{ scope, max: positive(limit?.max, `limits.${scope}.max`), windowMs: positive(limit?.windowMs, `limits.${scope}.windowMs`) }];
  });
  const allow = countryList(options.countries?.allow, 'allow');
  const deny = countryList(options.countries?.deny, 'deny');
  if (options.countryOf !== undefined && typeof options.countryOf !== 'function') fail('createGuard: countryOf must be a function of the digits, or left out.');
  const budget = options.budget && {
    max: positive(options.budget.maxPerMinute, 'budget.maxPerMinute'),
    openMs: positive(options.budget.openMs ?? 5 * MINUTE, 'budget.openMs'),
  };
  const p = options.pumping === false ? undefined : options.pumping ?? {};
  if (p && ('minStarts' in p || 'threshold' in p)) fail('createGuard: pumping.minStarts and pumping.threshold are per scope now: pass pumping: { prefix: { minStarts, threshold } } (and country: { ... } for countries).');
  const pumping = p && {
    prefix: scopeOf(p.prefix, { minStarts: 30, threshold: 0.8 }, 'prefix'),
    country: scopeOf(p.country, { minStarts: 1000, threshold: 0.9 }, 'country'),
    windowMs: positive(p.windowMs ?? HOUR, 'pumping.windowMs'),
    coolMs: positive(p.coolMs ?? HOUR, 'pumping.coolMs'),
  };
  const trustVerifiedMs = positive((p && p.trustVerifiedMs) ?? 30 * 24 * HOUR, 'pumping.trustVerifiedMs');
  const bucketMs = pumping ? Math.max(1, Math.ceil(pumping.windowMs / PUMPING_BUCKETS)) : 1;
  const mac = options.hashKeys === undefined ? undefined : macOf(options.hashKeys, 'createGuard: hashKeys');
  /** A key name's part: the value, or its keyed hash. */
  const named = (value: string) => (mac ? hashedName(mac, value) : value);

  const canonical = (phoneNumber: unknown): CanonicalNumber | undefined => {
    const number = canonicalNumber(phoneNumber, defaultCountry);
    if (!number) return undefined;
    const country = options.countryOf ? options.countryOf(number.digits)?.toUpperCase() : number.country;
    return { digits: number.digits, country };
  };

  /** The pumping scopes of a number: its range, and its country when known. */
  const scopesOf = async (digits: string, country: string | undefined) => {
    const scopes: Array<{ scope: 'prefix' | 'country'; value: string; counter: string; cooling: string; minStarts: number; threshold: number }> = [];
    if (pumping?.prefix) {
      const prefix = digits.slice(0, digits.length - rangeDigits);
      const name = await named(prefix);
      scopes.push({ scope: 'prefix', value: prefix, counter: `pr:${name}`, cooling: `pr!:${name}`, ...pumping.prefix });
    }
    if (pumping?.country && country) scopes.push({ scope: 'country', value: country, counter: `pc:${country}`, cooling: `pc!:${country}`, ...pumping.country });
    return scopes;
  };

  return {
    store,
    now,
    storeTimeoutMs,
    canonical,
    async prepare(request) {
      const number = canonical(request?.phoneNumber);
      if (!number) return { allowed: false, reason: 'invalid_number', retryAfterMs: 0 };
      const ip = request.ip === undefined ? undefined : canonicalIp(request.ip, ipv6Prefix);
      if (request.ip !== undefined && ip === undefined) return { allowed: false, reason: 'invalid_ip', retryAfterMs: 0 };
      const account = request.account;
      if (account !== undefined && (typeof account !== 'string' || account.length > 256)) {
        throw new XError('invalid_request', 'guard.check: account must be your id of the account, a string of at most 256 characters.');
      }
      const { digits, country } = number;
      if ((allow && (!country || !allow.has(country))) || (country && deny?.has(country))) return { allowed: false, reason: 'country_denied', retryAfterMs: 0 };

      const values: Record<LimitScope, string | undefined> = { phone: digits, ip, prefix: digits.slice(0, digits.length - rangeDigits), country, account };
      const active = limits.filter((limit) => values[limit.scope] !== undefined);
      const scopes = await scopesOf(digits, country);
      const plan: GuardPlan = {
        now: now(),
        limits: await Promise.all(active.map(async (limit) => ({ key: `${KEY[limit.scope]}:${limit.scope === 'country' ? values.country : await named(values[limit.scope]!)}`, max: limit.max, windowMs: limit.windowMs }))),
        circuit: budget && { key: 'g!', budgetKey: 'g', max: budget.max, windowMs: MINUTE, openMs: budget.openMs },
        pumping: pumping && ({
          scopes: scopes.map(({ counter, cooling, minStarts, threshold }) => ({ counter, cooling, minStarts, threshold })),
          bucketMs, buckets: PUMPING_BUCKETS, coolMs: pumping.coolMs, start: !request.resend,
        } satisfies PumpingPlan),
        verified: `v:${await named(digits)}`,
        trusted: request.trusted === true,
      };
      return { digits, country, plan, scopes, active: active.map((limit) => limit.scope) };
    },
    interpret({ country, scopes, active }, verdict) {
      if (verdict.allowed) return { allowed: true, country };
      if (verdict.refusal === 'limit') return { allowed: false, reason: `${active[verdict.index]!}_limit`, retryAfterMs: verdict.retryAfterMs };
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
    unavailable(error, country) {
      onEvent({ type: 'store_unavailable', failOpen: options.failOpen === true, error });
      return options.failOpen ? { allowed: true, country, degraded: true } : { allowed: false, reason: 'store_unavailable', retryAfterMs: 0 };
    },
    async completion(digits, country) {
      const scopes = await scopesOf(digits, country);
      return { now: now(), counters: scopes.map((s) => s.counter), bucketMs, buckets: PUMPING_BUCKETS, verified: `v:${await named(digits)}`, verifiedMs: trustVerifiedMs };
    },
  };
}

/**
 * A guard against SMS pumping and abuse, to ask before every send (the flow of `createOtp` asks
 * it itself). Every number is keyed by its canonical E.164 form and every client by its canonical
 * address (an IPv6 client by its /64), whatever the spelling. It refuses, with a reason and the
 * time after which trying again can help (0 when waiting does not help): what is not a possible
 * number or one IP address, countries outside the lists, sends beyond a sliding-window limit per
 * number, IP, number range, country or account, every send while the global budget's circuit is
 * open, and number ranges and countries where too many verifications were started and never
 * completed. Each decision is one store operation, within `storeTimeoutMs`.
 *
 * @example
 * ```ts
 * import { createGuard } from '@x/otp';
 *
 * const guard = createGuard({ countries: { deny: ['XK'] }, budget: { maxPerMinute: 600 }, onEvent: (e) => log(e) });
 * const decision = await guard.check({ phoneNumber: '+44 7400 123456', ip: '203.0.113.7' });
 * if (!decision.allowed) log('refused', decision.reason, 'try again in', decision.retryAfterMs, 'ms');
 * ```
 */
export function createGuard(options: GuardOptions = {}): Guard {
  const core = guardCore(options);
  return {
    async check(request) {
      const prepared = await core.prepare(request);
      if ('allowed' in prepared) return prepared;
      let verdict;
      try {
        verdict = (await bounded(core.storeTimeoutMs, () => core.store.decide(prepared.plan))) as GuardVerdict;
      } catch (error) {
        return core.unavailable(error, prepared.country);
      }
      return core.interpret(prepared, verdict);
    },
    async completed(phoneNumber) {
      const number = core.canonical(phoneNumber);
      const plan = number && (await core.completion(number.digits, number.country));
      if (!plan) return;
      try {
        await bounded(core.storeTimeoutMs, () => core.store.complete(plan));
      } catch (error) {
        core.unavailable(error, number.country);
      }
    },
  };
}

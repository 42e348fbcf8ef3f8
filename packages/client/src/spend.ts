// Spend caps: budgets in SMS parts per key and period, checked before the request. The contract
// (SpendStore), its memory store and the cap; `@x/redis` implements the contract for several processes.
import { readClock, XError, type Clock } from '@x/auth';
import { analyzeMessage } from '@x/service/request';
import { BRAND, ConfigurationError } from './errors.js';
import { phoneNumber as canonicalPhone } from './validate.js';

/** A budget as a store sees it: at most `max` parts in a window of `periodMs`. */
export interface SpendBudget {
  /** The most parts in one period. */
  max: number;
  /** The length of a period, in milliseconds. */
  periodMs: number;
}

/** What {@link SpendStore.spend} answers: counted (`used` now includes the parts), or refused (nothing counted). */
export type SpendResult = { ok: true; used: number } | { ok: false; used: number; resetInMs: number };

/**
 * Where budgets are counted: one counter per key, in fixed windows. The first spend of a key opens
 * a window of `budget.periodMs`; its parts add up until the window ends, then the count starts
 * again from 0.
 *
 * `spend(key, parts, budget)` adds `parts` to the key's count when the sum stays within
 * `budget.max` (`{ ok: true, used }`, the count with them) and otherwise counts nothing
 * (`{ ok: false, used, resetInMs }`: the count, and when the window ends). The check and the
 * addition are one step: two callers never both pass the last parts of a budget. A store that
 * cannot answer rejects: nothing is sent (closed).
 *
 * In one process: `createMemorySpendStore()`; across processes: `createRedisSpendStore` of `@x/redis`.
 */
export interface SpendStore {
  /** Counts `parts` against `key` if they fit in `budget`; otherwise counts nothing. */
  spend(key: string, parts: number, budget: SpendBudget): Promise<SpendResult>;
}

/** Options of {@link createMemorySpendStore}. */
export interface MemorySpendStoreOptions {
  /** The clock (a Date or epoch milliseconds), as every `now` option of the SDK. Default `Date.now`. */
  now?: Clock | undefined;
}

/** The most keys a memory store holds: past it, ended windows are dropped, then the one that ends first. */
const MAX_KEYS = 100_000;

function checkSpend(key: string, parts: number, budget: SpendBudget): void {
  if (typeof key !== 'string' || key.length === 0) throw new ConfigurationError('A spend key must be a non-empty string.');
  if (!Number.isSafeInteger(parts) || parts < 0) throw new ConfigurationError(`spend: parts must be a whole number >= 0, got ${String(parts)}.`);
  checkBudget(budget, 'budget');
}

function checkBudget(budget: SpendBudget, where: string): void {
  if (!budget || typeof budget !== 'object') throw new ConfigurationError(`${where} must be { max, periodMs }.`);
  if (!Number.isSafeInteger(budget.max) || budget.max < 0) throw new ConfigurationError(`${where}.max must be a whole number of SMS parts >= 0, got ${String(budget.max)}.`);
  if (!Number.isSafeInteger(budget.periodMs) || budget.periodMs < 1) throw new ConfigurationError(`${where}.periodMs must be a whole number of milliseconds >= 1, got ${String(budget.periodMs)}.`);
}

/**
 * A spend store for one process (a Map of this store; nothing shared between stores). A window
 * that ends is forgotten. For several processes, use `createRedisSpendStore` of `@x/redis`.
 *
 * @example
 * ```ts
 * import { createMemorySpendStore, createSpendCap } from '@x/client/volume';
 *
 * const cap = createSpendCap({ budgets: [{ name: 'daily', max: 10_000, periodMs: 86_400_000 }], store: createMemorySpendStore() });
 * ```
 */
export function createMemorySpendStore(options: MemorySpendStoreOptions = {}): SpendStore {
  const now = () => readClock(options.now);
  const windows = new Map<string, { used: number; endsAt: number }>();
  const makeRoom = (at: number) => {
    for (const [key, w] of windows) if (w.endsAt <= at) windows.delete(key);
    if (windows.size < MAX_KEYS) return;
    let first: [string, number] | undefined;
    for (const [key, w] of windows) if (!first || w.endsAt < first[1]) first = [key, w.endsAt];
    if (first) windows.delete(first[0]);
  };
  return {
    async spend(key, parts, budget) {
      checkSpend(key, parts, budget);
      const at = now();
      let w = windows.get(key);
      if (w && w.endsAt <= at) {
        windows.delete(key);
        w = undefined;
      }
      const used = w?.used ?? 0;
      if (used + parts > budget.max) return { ok: false, used, resetInMs: w ? w.endsAt - at : budget.periodMs };
      if (!w) {
        if (windows.size >= MAX_KEYS) makeRoom(at);
        w = { used: 0, endsAt: at + budget.periodMs };
        windows.set(key, w);
      }
      w.used = used + parts;
      return { ok: true, used: w.used };
    },
  };
}

/** What a budget's `per` function sees of a send. */
export interface SpendRequest {
  /** The destination, digits with the country code (the canonical form, whatever the spelling given). */
  phoneNumber: string;
  /** The destination's country (ISO 3166 alpha-2) from `countryOf`, or `'unknown'`; undefined without `countryOf`. */
  country: string | undefined;
  /** The message's SMS parts, from `analyzeMessage`. */
  parts: number;
  /** The send's tags (e.g. `{ team: 'billing' }`), as given. */
  tags: Readonly<Record<string, string>>;
}

/**
 * One budget of a spend cap: at most `max` SMS parts per `periodMs`.
 *
 * - `per: 'account'` (default): one counter for every send through the cap.
 * - `per: 'country'`: one counter per destination country (needs `countryOf`); `except` lists the
 *   countries it does not apply to (your home countries), so that it caps international sends only.
 * - `per: (send) => key`: one counter per key the function gives (a team from `send.tags`);
 *   `undefined` leaves the send out of this budget.
 */
export interface Budget extends SpendBudget {
  /** Names the budget in errors and store keys: letters, digits, `-`, `_`, `.` (1 to 64). */
  name: string;
  /** Which counter a send goes to: `'account'` (default), `'country'`, or a key from the send (see above). */
  per?: 'account' | 'country' | ((send: SpendRequest) => string | undefined) | undefined;
  /** `per: 'country'`: the countries (ISO 3166 alpha-2) this budget leaves out. */
  except?: readonly string[] | undefined;
}

/** Options of {@link createSpendCap}. */
export interface SpendCapOptions {
  /** Where counts are kept. Default: `createMemorySpendStore()` (one process). */
  store?: SpendStore | undefined;
  /** The budgets; a send is charged to every one that applies, in this order. */
  budgets: readonly Budget[];
  /**
   * The country (ISO 3166 alpha-2) of a number given as digits: `countryOf` of `@x/otp/phone`, or
   * your own. Needed by budgets `per: 'country'`. A number it cannot place counts as `'unknown'`.
   */
  countryOf?: ((phoneNumber: string) => string | undefined) | undefined;
}

/** A send to charge: where it goes, its text, its tags. */
export interface SpendCharge {
  /** The destination, as `messaging.send` takes it (digits with the country code; "+", spaces and dashes allowed). */
  phoneNumber: string;
  /** The text: its parts are what is charged. */
  message: string;
  /** What `per` functions read (`{ team: 'billing' }`). */
  tags?: Readonly<Record<string, string>> | undefined;
}

/**
 * A send refused by a spend cap before its request: nothing was sent (`sent: false`). `budget`
 * names the budget, `key` its counter (`'account'`, a country, a team), `resetInMs` when its
 * window ends. Budgets checked before it in the cap's order have counted the parts.
 */
export class SpendCapError extends XError {
  /** Matches this class across copies of the package (ESM and CommonJS). */
  static readonly [BRAND]: string = '@x/client/SpendCapError';
  override name = 'SpendCapError';
  /** Always `'spend_cap_exceeded'`. */
  declare readonly code: 'spend_cap_exceeded';
  /** Nothing was sent. */
  readonly sent = false as const;
  /** The budget's name. */
  declare readonly budget: string;
  /** The counter within it: `'account'`, a country, or what `per` gave. */
  declare readonly key: string;
  /** The budget's most parts per period. */
  declare readonly max: number;
  /** Parts already counted in the current period. */
  declare readonly used: number;
  /** The parts of the refused send. */
  declare readonly parts: number;
  /** Milliseconds until the period ends and the count starts again. */
  declare readonly resetInMs: number;
  constructor(init: { budget: string; key: string; max: number; used: number; parts: number; resetInMs: number }) {
    super(
      'spend_cap_exceeded',
      `Not sent: the spend cap "${init.budget}" (${init.key}) allows ${init.max} SMS parts per period; ${init.used} are used and this message needs ${init.parts}. ` +
        `It resets in ${Math.ceil(init.resetInMs / 1000)} s: send later, shorten the message (analyzeMessage tells its parts), or raise the budget.`,
    );
    Object.assign(this, init);
  }
}

/** What {@link createSpendCap} returns. */
export interface SpendCap {
  /**
   * Charges a send to every budget that applies, before it goes out: its parts (`analyzeMessage`),
   * or a `SpendCapError` naming the budget it would pass (nothing sent). Resolves to the parts.
   */
  charge(send: SpendCharge): Promise<{ parts: number }>;
}

const NAME = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Budgets in SMS parts per period, per account, team or destination country, checked before the
 * request: a send that would pass one is a `SpendCapError` naming it, and is not sent.
 *
 * @example
 * ```ts
 * import { createSpendCap } from '@x/client/volume';
 * import { countryOf } from '@x/otp/phone';
 *
 * const DAY = 86_400_000;
 * const cap = createSpendCap({
 *   countryOf,
 *   budgets: [
 *     { name: 'account', max: 50_000, periodMs: DAY },
 *     { name: 'team', max: 5_000, periodMs: DAY, per: (send) => send.tags.team },
 *     { name: 'international', max: 500, periodMs: DAY, per: 'country', except: ['US', 'CA'] },
 *   ],
 * });
 * await cap.charge({ phoneNumber: '447700900123', message: 'Your order has shipped', tags: { team: 'shop' } });
 * ```
 */
export function createSpendCap(options: SpendCapOptions): SpendCap {
  if (!options || typeof options !== 'object' || !Array.isArray(options.budgets)) throw new ConfigurationError('createSpendCap takes { budgets: [{ name, max, periodMs, per? }], store?, countryOf? }.');
  const store = options.store ?? createMemorySpendStore();
  if (typeof store.spend !== 'function') throw new ConfigurationError('createSpendCap: the store has no spend(key, parts, budget) (createMemorySpendStore(), or createRedisSpendStore() of @x/redis).');
  const { countryOf } = options;
  const names = new Set<string>();
  const budgets = options.budgets.map((budget, index) => {
    const where = `budgets[${index}]`;
    checkBudget(budget, where);
    if (typeof budget.name !== 'string' || !NAME.test(budget.name)) throw new ConfigurationError(`${where}.name must be 1 to 64 letters, digits, "-", "_" or ".", got ${JSON.stringify(budget.name)}.`);
    if (names.has(budget.name)) throw new ConfigurationError(`${where}.name "${budget.name}" is used twice: each budget needs its own name (it keys its counters).`);
    names.add(budget.name);
    const per = budget.per ?? 'account';
    if (per !== 'account' && per !== 'country' && typeof per !== 'function') throw new ConfigurationError(`${where}.per must be 'account', 'country' or a function of the send, got ${String(per)}.`);
    if (per === 'country' && typeof countryOf !== 'function') throw new ConfigurationError(`${where} is per country: give createSpendCap a countryOf (countryOf of @x/otp/phone, or your own).`);
    if (budget.except !== undefined && per !== 'country') throw new ConfigurationError(`${where}.except applies to per: 'country' budgets only.`);
    const except = new Set((budget.except ?? []).map((c: string) => String(c).toUpperCase()));
    return { ...budget, per, except, limits: { max: budget.max, periodMs: budget.periodMs } };
  });

  return {
    async charge(send) {
      if (!send || typeof send !== 'object') throw new ConfigurationError('charge takes { phoneNumber, message, tags? }.');
      if (typeof send.message !== 'string') throw new ConfigurationError('charge: message must be a string.');
      // One identity per destination whatever its spelling: "+44 7700 900123" is 447700900123.
      const phoneNumber = canonicalPhone(send.phoneNumber);
      const parts = analyzeMessage(send.message).parts;
      const found = countryOf?.(phoneNumber);
      const request: SpendRequest = { phoneNumber, country: countryOf ? (typeof found === 'string' && found ? found.toUpperCase() : 'unknown') : undefined, parts, tags: send.tags ?? {} };
      for (const budget of budgets) {
        let key: string | undefined;
        if (budget.per === 'account') key = 'account';
        else if (budget.per === 'country') key = budget.except.has(request.country!) ? undefined : request.country;
        else key = budget.per(request);
        if (key === undefined) continue;
        if (typeof key !== 'string' || key.length === 0 || key.length > 200) throw new ConfigurationError(`The per function of budget "${budget.name}" must give a string of 1 to 200 characters or undefined, got ${typeof key}.`);
        const result = await store.spend(`spend:${budget.name}:${key}`, parts, budget.limits);
        if (!result.ok) throw new SpendCapError({ budget: budget.name, key, max: budget.max, used: result.used, parts, resetInMs: result.resetInMs });
      }
      return { parts };
    },
  };
}

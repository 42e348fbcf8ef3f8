/**
 * The stores' contracts as checks any test runner can run against any store: this package's on
 * your Redis (or Cluster, or client), or a store of your own. Each check is `{ name, run }`;
 * `run(make)` builds the stores it needs with `make()` (two of them stand for two processes), uses
 * fresh random keys, and throws an `XError` (`store_contract`) saying what the store answered
 * against what the contract says.
 *
 * @example
 * ```ts
 * import { describe, it } from 'vitest'; // or Jest, or node:test
 * import { Redis } from 'ioredis';
 * import { createRedisReplayStore } from '@x/redis';
 * import { deliveryStoreChecks, replayStoreChecks } from '@x/redis/testing';
 *
 * const client = new Redis(process.env.REDIS_URL!);
 * describe('my Redis', () => {
 *   for (const check of [...replayStoreChecks, ...deliveryStoreChecks]) it(check.name, () => check.run(() => createRedisReplayStore({ client, prefix: 'contract:' })));
 * });
 * ```
 *
 * @packageDocumentation
 * @module @x/redis/testing
 */
import { XError, type DeliveryStore, type ReplayStore } from '@x/auth';

/** One contract check: `run` rejects with an `XError('store_contract')` when the store breaks it. */
export interface StoreCheck<Store> {
  /** What the contract says, as a test name. */
  readonly name: string;
  /** Runs the check with stores built by `make` (called once per process the check stands for). */
  run(make: () => Store | Promise<Store>): Promise<void>;
}

/** The router's state store contract (`createRouter({ store })`, `createRedisStateStore`). */
export interface StateStoreLike {
  /** A key's state, or null (or undefined) when it has none. */
  get(key: string): string | null | undefined | Promise<string | null | undefined>;
  /** Writes `next` only over `expected` (null: no key); false when the key holds something else. */
  compareAndSet(key: string, expected: string | null, next: string, ttlMs: number): boolean | Promise<boolean>;
}

/** A delivery store with every optional step (`sending`, `inspect`, `release`), as both stores of the SDK have them. */
export type FullDeliveryStore = Required<DeliveryStore>;

const key = () => `contract:${crypto.randomUUID()}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const show = (value: unknown) => JSON.stringify(value) ?? String(value);
function expect(what: string, actual: unknown, expected: unknown): void {
  if (show(actual) !== show(expected)) throw new XError('store_contract', `${what}: expected ${show(expected)}, the store answered ${show(actual)}.`);
}
function expectThat(what: string, ok: boolean, actual: unknown): void {
  if (!ok) throw new XError('store_contract', `${what}: the store answered ${show(actual)}.`);
}
const check = <Store>(name: string, run: (make: () => Promise<Store>) => Promise<void>): StoreCheck<Store> => ({
  name,
  run: (make) => run(async () => make()),
});

/** `claim(key, ttlMs)`: true once per key until the ttl ends, across processes. */
export const replayStoreChecks: ReadonlyArray<StoreCheck<ReplayStore>> = [
  check('claim: the first claim of a key is true, the next false', async (make) => {
    const store = await make();
    const k = key();
    expect('first claim', await store.claim(k, 60_000), true);
    expect('second claim', await store.claim(k, 60_000), false);
    expect('another key', await store.claim(key(), 60_000), true);
  }),
  check('claim: of many concurrent claims from two processes, exactly one is true', async (make) => {
    const [a, b] = [await make(), await make()];
    const k = key();
    const won = (await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).claim(k, 60_000)))).filter(Boolean);
    expect('claims that won', won.length, 1);
  }),
  check('claim: a key is free again once its ttl ran out', async (make) => {
    const store = await make();
    const k = key();
    await store.claim(k, 40);
    await sleep(200);
    expect('claim after the ttl', await store.claim(k, 60_000), true);
  }),
];

/** `begin` / `complete` / `abandon` / `sending` / `inspect` / `release`: exactly once, across processes. */
export const deliveryStoreChecks: ReadonlyArray<StoreCheck<FullDeliveryStore>> = [
  check('begin: started with a token, then in_progress for every other begin', async (make) => {
    const [a, b] = [await make(), await make()];
    const k = key();
    const first = await a.begin(k, 60_000);
    expectThat('first begin is started with a token', first.state === 'started' && typeof first.token === 'string' && first.token.length > 0, first);
    expect('begin from another process', await b.begin(k, 60_000), { state: 'in_progress' });
  }),
  check('begin: of many concurrent begins from two processes, exactly one is started', async (make) => {
    const [a, b] = [await make(), await make()];
    const k = key();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).begin(k, 60_000)));
    expect('begins started', answers.filter((answer) => answer.state === 'started').length, 1);
  }),
  check('complete: later begins are done, with the value complete recorded', async (make) => {
    const [a, b] = [await make(), await make()];
    const [k, v] = [key(), key()];
    const first = await a.begin(k, 60_000);
    if (first.state !== 'started') throw new XError('store_contract', `begin of a fresh key: the store answered ${show(first)}.`);
    expect('complete by the holder', await a.complete(k, first.token, 60_000), true);
    expect('begin after complete', await b.begin(k, 60_000), { state: 'done' });
    const second = await a.begin(v, 60_000);
    if (second.state !== 'started') throw new XError('store_contract', `begin of a fresh key: the store answered ${show(second)}.`);
    await a.complete(v, second.token, 60_000, 'the answer');
    expect('begin after complete with a value', await b.begin(v, 60_000), { state: 'done', value: 'the answer' });
  }),
  check('abandon: frees the key for the next begin; another token abandons nothing', async (make) => {
    const [a, b] = [await make(), await make()];
    const k = key();
    const first = await a.begin(k, 60_000);
    if (first.state !== 'started') throw new XError('store_contract', `begin of a fresh key: the store answered ${show(first)}.`);
    expect('abandon with a token that never held the key', await b.abandon(k, 'p:not-the-holder'), false);
    expect('begin while still held', await b.begin(k, 60_000), { state: 'in_progress' });
    expect('abandon by the holder', await a.abandon(k, first.token), true);
    const again = await b.begin(k, 60_000);
    expect('begin after abandon', again.state, 'started');
  }),
  check('lease: a holder that never completes frees the key after its lease; its late complete says false and done wins', async (make) => {
    const [a, b] = [await make(), await make()];
    const k = key();
    const first = await a.begin(k, 40);
    if (first.state !== 'started') throw new XError('store_contract', `begin of a fresh key: the store answered ${show(first)}.`);
    await sleep(200);
    const second = await b.begin(k, 60_000);
    if (second.state !== 'started') throw new XError('store_contract', `begin after the lease ran out: the store answered ${show(second)}.`);
    expect('late complete of the first holder', await a.complete(k, first.token, 60_000), false);
    expect('abandon by the second holder after done', await b.abandon(k, second.token), false);
    expect('begin after the late complete', await b.begin(k, 60_000), { state: 'done' });
  }),
  check('sending: marks the holder\'s key as being sent; inspect shows it, then stalled once the lease runs out', async (make) => {
    const [a, b] = [await make(), await make()];
    const k = key();
    const first = await a.begin(k, 60_000);
    if (first.state !== 'started') throw new XError('store_contract', `begin of a fresh key: the store answered ${show(first)}.`);
    expect('inspect of a reserved key', (await b.inspect(k))?.state, 'reserved');
    expect('sending with another token', await b.sending(k, 'p:not-the-holder', 60_000, 60_000), false);
    // A lease of a second: long enough for the next calls on a loaded machine, short enough to wait out.
    expect('sending by the holder', await a.sending(k, first.token, 1_000, 60_000), true);
    expect('begin while sending', await b.begin(k, 60_000), { state: 'in_progress', phase: 'sending' });
    const sending = await b.inspect(k);
    expectThat('inspect while sending', sending?.state === 'sending' && typeof sending.leaseUntil === 'number' && typeof sending.sendingSince === 'number', sending);
    await sleep(1_200);
    expect('begin once the lease ran out', await b.begin(k, 60_000), { state: 'in_progress', phase: 'stalled' });
    expect('inspect once the lease ran out', (await b.inspect(k))?.state, 'stalled');
    expect('sending renews the holder\'s lease', await a.sending(k, first.token, 60_000, 60_000), true);
    expect('begin after renewal', await b.begin(k, 60_000), { state: 'in_progress', phase: 'sending' });
  }),
  check('inspect and release: nothing for a free key; release forgets a key whatever its state', async (make) => {
    const [a, b] = [await make(), await make()];
    const k = key();
    expect('inspect of a free key', await a.inspect(k), undefined);
    expect('release of a free key', await a.release(k), false);
    const first = await a.begin(k, 60_000);
    if (first.state !== 'started') throw new XError('store_contract', `begin of a fresh key: the store answered ${show(first)}.`);
    await a.sending(k, first.token, 60_000, 60_000);
    await a.complete(k, first.token, 60_000, 'kept');
    expect('inspect of a done key', { state: (await b.inspect(k))?.state, value: (await b.inspect(k))?.value }, { state: 'done', value: 'kept' });
    expect('release of a done key', await b.release(k), true);
    expect('inspect after release', await b.inspect(k), undefined);
    expect('begin after release', (await b.begin(k, 60_000)).state, 'started');
  }),
];

/** `get` / `compareAndSet`: a write lands only on the state it was decided from, across processes. */
export const stateStoreChecks: ReadonlyArray<StoreCheck<StateStoreLike>> = [
  check('compareAndSet: writes only over the expected state (null: no key)', async (make) => {
    const [a, b] = [await make(), await make()];
    const k = key();
    expect('get of a new key', (await a.get(k)) ?? null, null);
    expect('set over no key', await a.compareAndSet(k, null, 'sent', 60_000), true);
    expect('set over no key, once there is one', await b.compareAndSet(k, null, 'other', 60_000), false);
    expect('set over a state it does not hold', await b.compareAndSet(k, 'queued', 'delivered', 60_000), false);
    expect('set over the state it holds', await b.compareAndSet(k, 'sent', 'delivered', 60_000), true);
    expect('get from the other process', await a.get(k), 'delivered');
  }),
  check('compareAndSet: of many concurrent writes from one state, exactly one lands', async (make) => {
    const [a, b] = [await make(), await make()];
    const k = key();
    await a.compareAndSet(k, null, 'sent', 60_000);
    const won = (await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).compareAndSet(k, 'sent', `next-${i}`, 60_000)))).filter(Boolean);
    expect('writes that landed', won.length, 1);
  }),
  check('compareAndSet: the state is kept for its ttl, then forgotten', async (make) => {
    const store = await make();
    const k = key();
    await store.compareAndSet(k, null, 'sent', 40);
    await sleep(200);
    expect('get after the ttl', (await store.get(k)) ?? null, null);
  }),
];

/** The rate limit store contract (`RateLimitStore` of `@x/client/volume`). */
export interface RateLimitStoreLike {
  /** Reserves the next slot of `key`: milliseconds to wait for it. */
  acquire(key: string, rate: { perSecond: number; burst: number }): Promise<number>;
  /** Holds every slot of `key` until `untilMs` (epoch milliseconds). */
  pause(key: string, untilMs: number): Promise<void>;
}
/** The spend store contract (`SpendStore` of `@x/client/volume`). */
export interface SpendStoreLike {
  /** Counts `parts` against `key` when they fit in `budget`, else counts nothing. */
  spend(key: string, parts: number, budget: { max: number; periodMs: number }): Promise<{ ok: true; used: number } | { ok: false; used: number; resetInMs: number }>;
}

/** `acquire` reserves slots at the rate across processes; `pause` holds them all. */
export const rateLimitStoreChecks: ReadonlyArray<StoreCheck<RateLimitStoreLike>> = [
  check('acquire: the burst goes at once, then each slot one interval after the last, whichever process asks', async (make) => {
    const [a, b] = [await make(), await make()];
    const k = key();
    // Intervals of 500 ms, so a slow machine or a distant store (calls of tens of ms) cannot
    // blur one interval into a burst.
    const rate = { perSecond: 2, burst: 2 };
    const waits = [await a.acquire(k, rate), await b.acquire(k, rate), await a.acquire(k, rate), await b.acquire(k, rate)];
    expect('the burst', waits.slice(0, 2), [0, 0]);
    // The third slot is 500 ms after the first, the fourth 1,000 ms, less the time the calls took.
    expectThat('the third slot waits about one interval', waits[2]! > 250 && waits[2]! <= 500, waits);
    expectThat('the fourth slot waits one interval more', waits[3]! > waits[2]! + 250 && waits[3]! <= 1_000, waits);
    expect('another key is not paced by this one', await a.acquire(key(), rate), 0);
  }),
  check('pause: every process waits until its end, then slots resume at the rate without a burst', async (make) => {
    const [a, b] = [await make(), await make()];
    const k = key();
    const rate = { perSecond: 2, burst: 5 };
    expect('before the pause', await a.acquire(k, rate), 0);
    await a.pause(k, Date.now() + 2_000);
    const first = await b.acquire(k, rate);
    const second = await a.acquire(k, rate);
    expectThat('the other process waits for the pause', first > 1_500 && first <= 2_100, first);
    expectThat('the next slot is one interval later, not a burst', second >= first + 250, [first, second]);
    await a.pause(k, Date.now() + 10);
    expectThat('an earlier end changes nothing', (await b.acquire(k, rate)) > 1_500, 'a shorter pause shortened the longer one');
  }),
];

/** `spend` counts parts in fixed windows and refuses, counting nothing, past the budget. */
export const spendStoreChecks: ReadonlyArray<StoreCheck<SpendStoreLike>> = [
  check('spend: counts parts until the budget, refuses past it without counting, across processes', async (make) => {
    const [a, b] = [await make(), await make()];
    const k = key();
    const budget = { max: 5, periodMs: 60_000 };
    expect('first spend', await a.spend(k, 2, budget), { ok: true, used: 2 });
    expect('second spend, another process', await b.spend(k, 3, budget), { ok: true, used: 5 });
    const refused = await a.spend(k, 1, budget);
    expectThat('past the budget: refused, with the time the window ends', refused.ok === false && refused.used === 5 && 'resetInMs' in refused && refused.resetInMs > 0 && refused.resetInMs <= 60_000, refused);
    expect('another key has its own budget', await b.spend(key(), 5, budget), { ok: true, used: 5 });
  }),
  check('spend: of many concurrent spends from two processes, exactly the budget passes', async (make) => {
    const [a, b] = [await make(), await make()];
    const k = key();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).spend(k, 1, { max: 7, periodMs: 60_000 })));
    expect('spends that passed', answers.filter((answer) => answer.ok).length, 7);
  }),
  check('spend: a new window starts from 0 once the period ran out', async (make) => {
    const store = await make();
    const k = key();
    await store.spend(k, 3, { max: 3, periodMs: 50 });
    await sleep(200);
    expect('spend in the next window', await store.spend(k, 3, { max: 3, periodMs: 50 }), { ok: true, used: 3 });
  }),
];

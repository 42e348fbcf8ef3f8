// The pumping detector cannot be turned against the application: a burst in one range leaves the
// rest of its country open, a cooled range lets through numbers that completed a verification and
// trusted starts, and the starts that tripped a scope never trip it again.
import { Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createGuard, createMemoryStore, createOtp, type GuardEvent, type GuardOptions, type OtpEvent, type OtpStore } from '../src/index.js';
import { createRedisStore } from '../src/redis.js';
import { clock, emulated } from './support.js';

const redis = new Redis(inject('redisPort'), '127.0.0.1');
afterAll(() => redis.quit());
let run = 0;
const stores: Array<[string, () => OtpStore]> = [
  ['memory', () => createMemoryStore()],
  ['redis', () => createRedisStore({ client: redis, prefix: `detector:${process.pid}:${++run}:` })],
];
const NO_LIMITS = { phone: false, ip: false, prefix: false, account: false } as const;
const inRange = (range: string, i: number) => `+1${range}${String(i).padStart(3, '0')}`;

describe.each(stores)('the pumping detector on the %s store', (_name, makeStore) => {
  const setup = (options: GuardOptions = {}) => {
    const time = clock();
    const events: GuardEvent[] = [];
    const guard = createGuard({ store: makeStore(), now: time.now, limits: NO_LIMITS, onEvent: (e) => events.push(e), ...options });
    return { guard, time, events };
  };

  it('a burst of unfinished starts in one range trips that range only: the rest of its country is open', async () => {
    const { guard, events } = setup();
    const answers = [];
    for (let i = 0; i < 60; i++) answers.push(await guard.check({ phoneNumber: inRange('5555558', i) }));
    expect(answers.filter((a) => a.allowed)).toHaveLength(29);
    expect(events.map((e) => e.type === 'pumping' && e.scope)).toEqual(['prefix']);
    expect(await guard.check({ phoneNumber: '+1 212 555 0199' })).toMatchObject({ allowed: true, country: 'US' });
    expect(await guard.check({ phoneNumber: inRange('5555559', 1) })).toMatchObject({ allowed: true });
  });

  it('bursts spread over many ranges trip ranges, not the country, below its own volume', async () => {
    const { guard, events } = setup();
    for (let r = 0; r < 10; r++) for (let i = 0; i < 35; i++) await guard.check({ phoneNumber: inRange(`555556${r}`, i) });
    expect(events.every((e) => e.type === 'pumping' && e.scope === 'prefix')).toBe(true);
    expect(await guard.check({ phoneNumber: '+1 212 555 0199' })).toMatchObject({ allowed: true });
  });

  it('a country trips on evidence in proportion to its own traffic: its own volume and share', async () => {
    const { guard, events } = setup({ pumping: { prefix: false, country: { minStarts: 100, threshold: 0.9 } } });
    // Honest traffic: 50 completed verifications.
    for (let i = 0; i < 50; i++) {
      await guard.check({ phoneNumber: inRange('2125550', i) });
      await guard.completed(inRange('2125550', i));
    }
    // 400 unfinished starts: 400 of 450 is below 90 %, so the country stays open.
    for (let i = 0; i < 400; i++) expect(await guard.check({ phoneNumber: inRange(`21255${String(10 + Math.floor(i / 100))}`, i % 100) })).toMatchObject({ allowed: true });
    expect(events).toEqual([]);
    // 100 more make 500 unfinished of 550: past 90 %, the country trips.
    let tripped = -1;
    for (let i = 0; i < 100 && tripped < 0; i++) if (!(await guard.check({ phoneNumber: inRange('2125520', i) })).allowed) tripped = i;
    expect(tripped).toBeGreaterThan(0);
    expect(events).toMatchObject([{ type: 'pumping', scope: 'country', value: 'US' }]);
  });

  it('a cooled range lets through a number that completed a verification, and a trusted start; others wait', async () => {
    const { guard } = setup({ pumping: { prefix: { minStarts: 10, threshold: 0.8 }, country: false } });
    const loyal = inRange('5555558', 900);
    expect(await guard.check({ phoneNumber: loyal })).toMatchObject({ allowed: true });
    await guard.completed(loyal);
    for (let i = 0; i < 20; i++) await guard.check({ phoneNumber: inRange('5555558', i) });
    expect(await guard.check({ phoneNumber: inRange('5555558', 500) })).toMatchObject({ allowed: false, reason: 'pumping' });
    expect(await guard.check({ phoneNumber: loyal })).toMatchObject({ allowed: true });
    expect(await guard.check({ phoneNumber: inRange('5555558', 501), trusted: true })).toMatchObject({ allowed: true });
  });

  it('the global budget cannot be turned against known users: an open circuit refuses new numbers only', async () => {
    const { guard, events } = setup({ budget: { maxPerMinute: 5, openMs: 300_000 } });
    const loyal = '+44 7700 900999';
    expect(await guard.check({ phoneNumber: loyal })).toMatchObject({ allowed: true });
    await guard.completed(loyal);
    for (let i = 0; i < 4; i++) await guard.check({ phoneNumber: inRange('5555558', i) });
    expect(await guard.check({ phoneNumber: inRange('5555559', 1) })).toMatchObject({ allowed: false, reason: 'circuit_open' });
    expect(events).toMatchObject([{ type: 'circuit_open' }]);
    expect(await guard.check({ phoneNumber: '447700900999' })).toMatchObject({ allowed: true });
    expect(await guard.check({ phoneNumber: '+1 212 555 0100', trusted: true })).toMatchObject({ allowed: true });
    expect(await guard.check({ phoneNumber: '+1 212 555 0101' })).toMatchObject({ allowed: false, reason: 'circuit_open' });
  });

  it('after cooling, the starts that tripped a scope never trip it again: only new evidence does', async () => {
    const { guard, time, events } = setup({ pumping: { prefix: { minStarts: 10, threshold: 0.8 }, country: false, windowMs: 3_600_000, coolMs: 60_000 } });
    for (let i = 0; i < 10; i++) await guard.check({ phoneNumber: inRange('5555558', i) });
    expect(events).toHaveLength(1);
    time.advance(60_000); // cooled, well within the window of the starts that tripped it
    for (let i = 20; i < 28; i++) expect(await guard.check({ phoneNumber: inRange('5555558', i) })).toMatchObject({ allowed: true });
    expect(events).toHaveLength(1);
  });
});

describe('the detector\'s options', () => {
  it('the old top-level minStarts and threshold are refused loudly, saying where they go now', () => {
    expect(() => createGuard({ pumping: { minStarts: 10, threshold: 0.8 } as never })).toThrow(/pumping: \{ prefix: \{ minStarts, threshold \} \}/);
  });
});

describe('createOtp hears every guard event', () => {
  it('the pumping event reaches the onEvent given to createOtp as well as the guard\'s own', async () => {
    const { client } = emulated();
    const time = clock();
    const flowEvents: OtpEvent[] = [];
    const guardEvents: GuardEvent[] = [];
    const otp = createOtp({ client, now: time.now, onEvent: (e) => flowEvents.push(e), guard: { limits: NO_LIMITS, pumping: { prefix: { minStarts: 5, threshold: 0.8 } }, onEvent: (e) => guardEvents.push(e) } });
    for (let i = 0; i < 6; i++) await otp.start({ phoneNumber: inRange('5555558', i) });
    expect(guardEvents).toMatchObject([{ type: 'pumping', scope: 'prefix', value: '15555558' }]);
    expect(flowEvents.filter((e) => e.type === 'pumping')).toEqual(guardEvents);
  });
});

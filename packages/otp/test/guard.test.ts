// The guard on both stores: the same scenarios in memory and on a real redis-server.
import { Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createGuard, createMemoryStore, type GuardEvent, type GuardOptions, type OtpStore } from '../src/index.js';
import { countryOf } from '../src/phone.js';
import { createRedisStore } from '../src/redis.js';
import { clock } from './support.js';

const redis = new Redis(inject('redisPort'), '127.0.0.1', { lazyConnect: false });
afterAll(() => redis.quit());
let run = 0;

const stores: Array<[string, () => OtpStore]> = [
  ['memory', () => createMemoryStore()],
  ['redis', () => createRedisStore({ client: redis, prefix: `guard-test:${process.pid}:${++run}:` })],
];

describe.each(stores)('createGuard on the %s store', (_name, makeStore) => {
  const setup = (options: GuardOptions = {}) => {
    const time = clock();
    const events: GuardEvent[] = [];
    const guard = createGuard({ store: makeStore(), now: time.now, onEvent: (e) => events.push(e), ...options });
    return { guard, time, events };
  };

  it('a sliding window per number: max sends in any window, then the wait until the oldest leaves it', async () => {
    const { guard, time } = setup({ limits: { phone: { max: 3, windowMs: 60_000 } } });
    for (let i = 0; i < 3; i++) {
      expect(await guard.check({ phoneNumber: '447700900123' })).toMatchObject({ allowed: true });
      time.advance(10_000);
    }
    expect(await guard.check({ phoneNumber: '+44 7700 900123' })).toEqual({ allowed: false, reason: 'phone_limit', retryAfterMs: 30_000 });
    expect(await guard.check({ phoneNumber: '447700900124' })).toMatchObject({ allowed: true });
    time.advance(30_000);
    expect(await guard.check({ phoneNumber: '447700900123' })).toMatchObject({ allowed: true });
    expect(await guard.check({ phoneNumber: '447700900123' })).toMatchObject({ allowed: false, reason: 'phone_limit', retryAfterMs: 10_000 });
  });

  it('the window frees a slot exactly windowMs after the oldest send, not a millisecond before', async () => {
    const { guard, time } = setup({ limits: { phone: { max: 2, windowMs: 60_000 } } });
    expect(await guard.check({ phoneNumber: '447700900123' })).toMatchObject({ allowed: true });
    time.advance(10_000);
    expect(await guard.check({ phoneNumber: '447700900123' })).toMatchObject({ allowed: true });
    time.advance(49_999);
    expect(await guard.check({ phoneNumber: '447700900123' })).toEqual({ allowed: false, reason: 'phone_limit', retryAfterMs: 1 });
    time.advance(1);
    expect(await guard.check({ phoneNumber: '447700900123' })).toMatchObject({ allowed: true });
    expect(await guard.check({ phoneNumber: '447700900123' })).toEqual({ allowed: false, reason: 'phone_limit', retryAfterMs: 10_000 });
  });

  it('limits per IP, per range and per account; a refused check is not counted', async () => {
    const { guard } = setup({ limits: { phone: false, ip: { max: 2, windowMs: 60_000 }, prefix: { max: 3, windowMs: 60_000 }, account: { max: 1, windowMs: 60_000 } } });
    expect(await guard.check({ phoneNumber: '447700900001', ip: '203.0.113.7' })).toMatchObject({ allowed: true });
    expect(await guard.check({ phoneNumber: '447700900002', ip: '203.0.113.7' })).toMatchObject({ allowed: true });
    expect(await guard.check({ phoneNumber: '447700900003', ip: '203.0.113.7' })).toMatchObject({ allowed: false, reason: 'ip_limit' });
    expect(await guard.check({ phoneNumber: '447700900003', ip: '203.0.113.8', account: 'u1' })).toMatchObject({ allowed: true });
    expect(await guard.check({ phoneNumber: '447700900004' })).toMatchObject({ allowed: false, reason: 'prefix_limit' });
    expect(await guard.check({ phoneNumber: '447700901004', account: 'u1' })).toMatchObject({ allowed: false, reason: 'account_limit' });
    expect(await guard.check({ phoneNumber: '447700901004', account: 'u2' })).toMatchObject({ allowed: true });
  });

  it('country lists and limits with countryOf (libphonenumber-js)', async () => {
    const { guard } = setup({ countryOf, countries: { allow: ['GB', 'FR'], deny: ['FR'] }, limits: { country: { max: 1, windowMs: 60_000 } } });
    expect(await guard.check({ phoneNumber: '+44 7400 123456' })).toEqual({ allowed: true, country: 'GB' });
    expect(await guard.check({ phoneNumber: '+44 7400 654321' })).toMatchObject({ allowed: false, reason: 'country_limit' });
    expect(await guard.check({ phoneNumber: '+33 6 12 34 56 78' })).toEqual({ allowed: false, reason: 'country_denied', retryAfterMs: 0 });
    expect(await guard.check({ phoneNumber: '+49 151 12345678' })).toEqual({ allowed: false, reason: 'country_denied', retryAfterMs: 0 });
    // A number with no country (an international network) is outside an allow list.
    expect(await guard.check({ phoneNumber: '+882 34567890' })).toMatchObject({ allowed: false });
  });

  it('the global budget opens the circuit for openMs, with an event', async () => {
    const { guard, time, events } = setup({ limits: { phone: false, prefix: false }, budget: { maxPerMinute: 3, openMs: 120_000 } });
    for (let i = 0; i < 3; i++) expect(await guard.check({ phoneNumber: `4477009000${i}0` })).toMatchObject({ allowed: true });
    expect(await guard.check({ phoneNumber: '447700900999' })).toEqual({ allowed: false, reason: 'circuit_open', retryAfterMs: 120_000 });
    expect(events).toEqual([{ type: 'circuit_open', maxPerMinute: 3, openMs: 120_000 }]);
    time.advance(60_000);
    expect(await guard.check({ phoneNumber: '447700900999' })).toMatchObject({ allowed: false, reason: 'circuit_open' });
    time.advance(60_000);
    expect(await guard.check({ phoneNumber: '447700900999' })).toMatchObject({ allowed: true });
  });

  it('pumping: a range where most starts are never completed is refused for the cooling period, with an event', async () => {
    const { guard, time, events } = setup({ limits: { phone: false, ip: false, prefix: false, account: false }, pumping: { prefix: { minStarts: 10, threshold: 0.8 }, country: false, windowMs: 600_000, coolMs: 300_000 } });
    // A healthy range: most verifications complete.
    for (let i = 0; i < 20; i++) {
      const phone = `4420790001${String(i).padStart(2, '0')}`;
      expect(await guard.check({ phoneNumber: phone })).toMatchObject({ allowed: true });
      if (i % 4 !== 0) await guard.completed(phone);
    }
    // A burst on another range that never completes.
    const answers = [];
    for (let i = 0; i < 15; i++) answers.push(await guard.check({ phoneNumber: `4470000005${String(i).padStart(2, '0')}` }));
    const refused = answers.findIndex((a) => !a.allowed);
    expect(refused).toBe(9); // the 10th start makes 10 of 10 never completed
    expect(answers[refused]).toEqual({ allowed: false, reason: 'pumping', retryAfterMs: 300_000 });
    for (const later of answers.slice(refused + 1)) expect(later).toEqual({ allowed: false, reason: 'pumping', retryAfterMs: 300_000 });
    expect(events).toEqual([{ type: 'pumping', scope: 'prefix', value: '447000000', started: 9, completed: 0, coolMs: 300_000 }]);
    expect(await guard.check({ phoneNumber: '442079000150' })).toMatchObject({ allowed: true });
    time.advance(300_000);
    expect(await guard.check({ phoneNumber: '447000000599', resend: true })).toMatchObject({ allowed: true });
  });

  it('refuses what is not a number, never throwing', async () => {
    const { guard } = setup();
    for (const phoneNumber of ['', '12', 'abc', '+1 (555) 555-01000000000', undefined as never]) {
      expect(await guard.check({ phoneNumber })).toEqual({ allowed: false, reason: 'invalid_number', retryAfterMs: 0 });
    }
  });
});

describe('createGuard when the store fails', () => {
  const broken: OtpStore = { ...createMemoryStore(), decide: () => Promise.reject(new Error('connection refused')) };

  it('fails closed by default, with a typed reason and an event', async () => {
    const events: GuardEvent[] = [];
    const guard = createGuard({ store: broken, onEvent: (e) => events.push(e) });
    expect(await guard.check({ phoneNumber: '447700900123' })).toEqual({ allowed: false, reason: 'store_unavailable', retryAfterMs: 0 });
    expect(events).toMatchObject([{ type: 'store_unavailable', failOpen: false }]);
  });

  it('fails open when configured, marking the decision degraded', async () => {
    const guard = createGuard({ store: broken, failOpen: true });
    expect(await guard.check({ phoneNumber: '447700900123' })).toMatchObject({ allowed: true, degraded: true });
  });
});

// One number is one number, one client is one client: every spelling of the same phone or address
// shares one window, on both stores, and what is not a number or one address is refused.
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createGuard, createMemoryStore, createOtp, type OtpStore } from '../src/index.js';
import { createRedisStore } from '../src/redis.js';
import { clock, emulated } from './support.js';

const redis = new Redis(inject('redisPort'), '127.0.0.1');
afterAll(() => redis.quit());
let run = 0;
const stores: Array<[string, () => OtpStore]> = [
  ['memory', () => createMemoryStore()],
  ['redis', () => createRedisStore({ client: redis, prefix: `identity:${process.pid}:${++run}:` })],
];

/** Spellings the service delivers to the same UK mobile. */
const UK_SPELLINGS = ['+44 7700 900123', '+44 (0)7700 900123', '+44 07700 900123', '+440 7700 900123', '447700900123', '+44-7700-900-123', '+44.7700.900.123', 'tel:+44-7700-900123', '＋４４ ７７００ ９００１２３', '+٤٤٧٧٠٠٩٠٠١٢٣', '  +44 7700 900123 '];

describe.each(stores)('one identity per real thing, on the %s store', (_name, makeStore) => {
  it('every spelling of one number shares its window', async () => {
    const time = clock();
    const guard = createGuard({ store: makeStore(), now: time.now, limits: { phone: { max: 5, windowMs: 600_000 }, prefix: false, ip: false, account: false }, pumping: false });
    const answers = [];
    for (const phoneNumber of UK_SPELLINGS) answers.push(await guard.check({ phoneNumber }));
    expect(answers.filter((a) => a.allowed)).toHaveLength(5);
    expect(answers.slice(5).every((a) => !a.allowed && a.reason === 'phone_limit')).toBe(true);
  });

  it('a national spelling with defaultCountry is the same number; the trunk zero of Italy is kept', async () => {
    const guard = createGuard({ store: makeStore(), defaultCountry: 'GB', limits: { phone: { max: 1, windowMs: 600_000 }, prefix: false, ip: false, account: false }, pumping: false });
    expect(await guard.check({ phoneNumber: '07700 900123' })).toMatchObject({ allowed: true, country: 'GB' });
    expect(await guard.check({ phoneNumber: '+44 7700 900123' })).toMatchObject({ allowed: false, reason: 'phone_limit' });
    expect(await guard.check({ phoneNumber: '0044 7700 900123' })).toMatchObject({ allowed: false, reason: 'phone_limit' });
    expect(await guard.check({ phoneNumber: '+39 06 1234 5678' })).toMatchObject({ allowed: true, country: 'IT' });
    expect(await guard.check({ phoneNumber: '+39 6 1234 5678' })).toMatchObject({ allowed: true }); // another number
  });

  it('every spelling of one address shares its window; an IPv6 client is its /64', async () => {
    const guard = createGuard({ store: makeStore(), limits: { ip: { max: 3, windowMs: 600_000 }, phone: false, prefix: false, account: false }, pumping: false });
    const v4 = ['1.2.3.4', '::ffff:1.2.3.4', '::FFFF:1.2.3.4', '::ffff:0102:0304'];
    const v4answers = await Promise.all(v4.map(async (ip, i) => guard.check({ phoneNumber: `+4477009001${10 + i}`, ip })));
    expect(v4answers.filter((a) => a.allowed)).toHaveLength(3);
    const v6 = ['2001:db8:1:2::1', '2001:DB8:1:2::1', '2001:0db8:0001:0002:0000:0000:0000:0001', '2001:db8:1:2:ffff:ffff:ffff:fffe', '2001:db8:1:2:1234::9'];
    const v6answers = [];
    for (const [i, ip] of v6.entries()) v6answers.push(await guard.check({ phoneNumber: `+4477009002${10 + i}`, ip }));
    expect(v6answers.map((a) => a.allowed)).toEqual([true, true, true, false, false]);
    // Another /64 is another client.
    expect(await guard.check({ phoneNumber: '+447700900399', ip: '2001:db8:1:3::1' })).toMatchObject({ allowed: true });
  });

  it('what is not one address is invalid_ip, never a window of its own', async () => {
    const guard = createGuard({ store: makeStore() });
    for (const ip of ['198.51.100.1, 203.0.113.7', 'not-an-ip', '', '[::1]', '1.2.3.4:80', '01.2.3.4', '1.2.3', '0x7f.0.0.1', '1.2.3.4 ', 42 as never]) {
      expect(await guard.check({ phoneNumber: '+447700900123', ip })).toEqual({ allowed: false, reason: 'invalid_ip', retryAfterMs: 0 });
    }
  });

  it('what is not a possible number is invalid_number, before anything is counted', async () => {
    const guard = createGuard({ store: makeStore() });
    for (const phoneNumber of ['', '12', 'abc', '+44 7700', '+1 555 555 0100 ext 5', '+1-800-FLOWERS', '+44 7700 900123 4567 8901', 'x'.repeat(100)]) {
      expect(await guard.check({ phoneNumber })).toEqual({ allowed: false, reason: 'invalid_number', retryAfterMs: 0 });
    }
  });
});

describe('createOtp with the default limit of five sends per number', () => {
  it('ten spellings of one number reach the phone five times, all to its canonical number', async () => {
    const { client, emulator } = emulated();
    const otp = createOtp({ client });
    const answers = [];
    for (const phoneNumber of [...UK_SPELLINGS, '+44 (0) 7700-900-123']) answers.push(await otp.start({ phoneNumber }));
    expect(answers.filter((a) => a.status === 'sent')).toHaveLength(5);
    expect(answers.filter((a) => a.status === 'refused' && a.reason === 'phone_limit')).toHaveLength(UK_SPELLINGS.length + 1 - 5);
    expect(emulator.outbox.list().map((m) => m.phoneNumber)).toEqual(Array(5).fill('447700900123'));
  });
});

// Spellings a user or an attacker can write: separators, a trunk zero after the country code, the
// "+" or not, full-width digits; addresses: mapped IPv4, case, compressed or full, any host of a /64.
const FULL_WIDTH = (s: string) => s.replace(/\d/g, (d) => String.fromCharCode(0xff10 + Number(d)));
const numberSpelling = (national: string) =>
  fc.tuple(fc.constantFrom('+44', '+44 (0)', '+440', '44', '+44 0'), fc.constantFrom(' ', '-', '.', ''), fc.boolean()).map(([cc, sep, wide]) => {
    const text = `${cc}${sep}${national.slice(0, 4)}${sep}${national.slice(4)}`;
    return wide ? FULL_WIDTH(text) : text;
  });
const expand = (v6: string) => v6.split(':').map((g) => g.padStart(4, '0')).join(':');
const ipSpelling = (client: number) =>
  fc.oneof(
    fc.tuple(fc.constantFrom('', '::ffff:', '::FFFF:')).map(([p]) => `${p}198.51.100.${client}`),
    fc.tuple(fc.integer({ min: 0, max: 0xffff }), fc.boolean(), fc.boolean()).map(([host, upper, full]) => {
      const text = full ? expand(`2001:db8:${client}:0:0:0:0:${host.toString(16)}`) : `2001:db8:${client}::${host.toString(16)}`;
      return upper ? text.toUpperCase() : text;
    }),
  );

describe('a property over random spellings', () => {
  it('never more allowed sends per real number and per real client than the limits allow', async () => {
    const NATIONAL = ['7700900123', '7700900456'];
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat(1), fc.nat(1)).chain(([n, c]) => fc.tuple(fc.constant(n), fc.constant(c), numberSpelling(NATIONAL[n]!), ipSpelling(c + 1))), { minLength: 5, maxLength: 40 }),
        async (requests) => {
          const guard = createGuard({ store: createMemoryStore(), limits: { phone: { max: 3, windowMs: 600_000 }, ip: { max: 4, windowMs: 600_000 }, prefix: false, account: false }, pumping: false });
          const perNumber = [0, 0];
          const perClient = new Map<string, number>();
          for (const [n, c, phoneNumber, ip] of requests) {
            const decision = await guard.check({ phoneNumber, ip });
            if (!decision.allowed) {
              expect(['phone_limit', 'ip_limit']).toContain(decision.reason);
              continue;
            }
            perNumber[n]! += 1;
            const client = `${ip.includes(':') && !/ffff/i.test(ip) ? 'v6' : 'v4'}:${c}`;
            perClient.set(client, (perClient.get(client) ?? 0) + 1);
          }
          expect(Math.max(...perNumber)).toBeLessThanOrEqual(3);
          expect(Math.max(0, ...perClient.values())).toBeLessThanOrEqual(4);
        },
      ),
      { numRuns: 200 },
    );
  });
});

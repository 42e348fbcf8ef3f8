import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMemoryRateLimitStore, createMemorySpendStore, createSpendCap, SpendCapError } from '../src/volume.js';

describe('createMemoryRateLimitStore (GCRA)', () => {
  it('hands out slots spaced by the rate after the burst, in the order asked', async () => {
    let now = 1_000;
    const store = createMemoryRateLimitStore({ now: () => now });
    const rate = { perSecond: 10, burst: 3 };
    const waits = [];
    for (let i = 0; i < 6; i++) waits.push(await store.acquire('sms', rate));
    expect(waits).toEqual([0, 0, 0, 100, 200, 300]);
    now += 1_000; // a quiet second: the burst is back
    expect(await store.acquire('sms', rate)).toBe(0);
  });

  it('is fair across concurrent callers: every caller gets its own slot, none twice', async () => {
    const store = createMemoryRateLimitStore({ now: () => 0 });
    const waits = await Promise.all(Array.from({ length: 50 }, () => store.acquire('k', { perSecond: 5, burst: 1 })));
    expect([...waits].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i * 200));
  });

  it('never lets more than burst + rate x elapsed through, whatever the arrivals (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 1, max: 5 }), fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 1, maxLength: 60 }), async (perSecond, burst, gaps) => {
        let now = 0;
        const store = createMemoryRateLimitStore({ now: () => now });
        const sendsAt: number[] = [];
        for (const gap of gaps) {
          now += gap;
          sendsAt.push(now + (await store.acquire('k', { perSecond, burst })));
        }
        sendsAt.sort((a, b) => a - b);
        for (let i = 0; i < sendsAt.length; i++) {
          for (let j = i; j < sendsAt.length; j++) {
            // Sends in [sendsAt[i], sendsAt[j]]: at most burst + rate x span (waits are whole milliseconds: a span is known to 1 ms).
            expect(j - i + 1).toBeLessThanOrEqual(burst + Math.floor(((sendsAt[j]! - sendsAt[i]! + 1) * perSecond) / 1000));
          }
        }
      }),
      { numRuns: 200 },
    );
  });

  it('pause holds every slot of the key until its end, then resumes at the rate without a burst', async () => {
    let now = 0;
    const store = createMemoryRateLimitStore({ now: () => now });
    const rate = { perSecond: 10, burst: 5 };
    await store.pause('sms', 2_000);
    await store.pause('sms', 1_500); // an earlier end changes nothing
    expect(await store.acquire('sms', rate)).toBe(2_000);
    expect(await store.acquire('sms', rate)).toBe(2_100);
    expect(await store.acquire('other', rate)).toBe(0); // another key is not paused
    now = 5_000;
    expect(await store.acquire('sms', rate)).toBe(0);
  });

  it('refuses rates that would pace nothing or forever', async () => {
    const store = createMemoryRateLimitStore();
    for (const rate of [{ perSecond: 0, burst: 1 }, { perSecond: Number.NaN, burst: 1 }, { perSecond: -1, burst: 1 }, { perSecond: 1, burst: 0 }, { perSecond: Infinity, burst: 1 }]) {
      await expect(store.acquire('k', rate)).rejects.toMatchObject({ code: 'configuration_error' });
    }
  });
});

describe('createMemorySpendStore', () => {
  it('counts within the budget, refuses what would pass it without counting, and resets with the window', async () => {
    let now = 0;
    const store = createMemorySpendStore({ now: () => now });
    const budget = { max: 5, periodMs: 1_000 };
    expect(await store.spend('a', 3, budget)).toEqual({ ok: true, used: 3 });
    now = 400;
    expect(await store.spend('a', 3, budget)).toEqual({ ok: false, used: 3, resetInMs: 600 });
    expect(await store.spend('a', 2, budget)).toEqual({ ok: true, used: 5 });
    now = 1_000;
    expect(await store.spend('a', 5, budget)).toEqual({ ok: true, used: 5 });
  });

  it('never passes a budget under concurrent spends (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 40 }), fc.array(fc.integer({ min: 0, max: 10 }), { maxLength: 40 }), async (max, parts) => {
        const store = createMemorySpendStore({ now: () => 0 });
        const results = await Promise.all(parts.map((p) => store.spend('k', p, { max, periodMs: 60_000 })));
        const counted = parts.filter((_, i) => results[i]!.ok).reduce((a, b) => a + b, 0);
        expect(counted).toBeLessThanOrEqual(max);
        for (const [i, r] of results.entries()) if (!r.ok) expect(r.used + parts[i]!).toBeGreaterThan(max);
      }),
    );
  });
});

describe('createSpendCap', () => {
  const DAY = 86_400_000;
  const countryOf = (phone: string) => (phone.startsWith('44') ? 'GB' : phone.startsWith('33') ? 'FR' : phone.startsWith('1') ? 'US' : undefined);

  it('charges parts from analyzeMessage: one emoji doubles a message', async () => {
    const cap = createSpendCap({ budgets: [{ name: 'account', max: 10, periodMs: DAY }] });
    expect(await cap.charge({ phoneNumber: '15555550100', message: 'x'.repeat(100) })).toEqual({ parts: 1 });
    expect(await cap.charge({ phoneNumber: '15555550100', message: `${'x'.repeat(100)} 🎉` })).toEqual({ parts: 2 });
  });

  it('refuses before the send with an error naming the budget, its key and when it resets', async () => {
    const cap = createSpendCap({ budgets: [{ name: 'marketing', max: 2, periodMs: DAY, per: (send) => send.tags.team }] });
    await cap.charge({ phoneNumber: '15555550100', message: 'a', tags: { team: 'growth' } });
    await cap.charge({ phoneNumber: '15555550100', message: 'b', tags: { team: 'growth' } });
    const refused = await cap.charge({ phoneNumber: '15555550100', message: 'c', tags: { team: 'growth' } }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SpendCapError);
    expect(refused).toMatchObject({ code: 'spend_cap_exceeded', budget: 'marketing', key: 'growth', max: 2, used: 2, parts: 1, sent: false });
    expect((refused as Error).message).toContain('"marketing"');
    expect((refused as Error).message).not.toContain('15555550100');
    // Another team, and a send without a team, are not in that counter.
    await expect(cap.charge({ phoneNumber: '15555550100', message: 'd', tags: { team: 'ops' } })).resolves.toEqual({ parts: 1 });
    await expect(cap.charge({ phoneNumber: '15555550100', message: 'e' })).resolves.toEqual({ parts: 1 });
  });

  it('caps international destinations per country, whatever the spelling of the number', async () => {
    const cap = createSpendCap({ countryOf, budgets: [{ name: 'international', max: 2, periodMs: DAY, per: 'country', except: ['us'] }] });
    await cap.charge({ phoneNumber: '+44 7700 900123', message: 'a' });
    await cap.charge({ phoneNumber: '(44) 7700-900124', message: 'b' });
    await expect(cap.charge({ phoneNumber: '447700900125', message: 'c' })).rejects.toMatchObject({ budget: 'international', key: 'GB' });
    await expect(cap.charge({ phoneNumber: '33612345678', message: 'd' })).resolves.toEqual({ parts: 1 }); // France has its own counter
    for (let i = 0; i < 5; i++) await cap.charge({ phoneNumber: '15555550100', message: 'home' }); // home country: not capped
    // A number no country claims is capped too (as 'unknown'), not let through.
    await cap.charge({ phoneNumber: '8821234567890', message: 'a' });
    await cap.charge({ phoneNumber: '8821234567891', message: 'b' });
    await expect(cap.charge({ phoneNumber: '8821234567892', message: 'c' })).rejects.toMatchObject({ key: 'unknown' });
  });

  it('refuses a store that fails: the charge rejects, it does not pass', async () => {
    const cap = createSpendCap({ store: { spend: async () => Promise.reject(new Error('down')) }, budgets: [{ name: 'account', max: 10, periodMs: DAY }] });
    await expect(cap.charge({ phoneNumber: '15555550100', message: 'a' })).rejects.toThrow('down');
  });

  it('refuses misconfigured budgets at creation', () => {
    expect(() => createSpendCap({ budgets: [{ name: 'x', max: 1, periodMs: DAY, per: 'country' }] })).toThrow(/countryOf/);
    expect(() => createSpendCap({ budgets: [{ name: 'x', max: 1, periodMs: DAY }, { name: 'x', max: 2, periodMs: DAY }] })).toThrow(/twice/);
    expect(() => createSpendCap({ budgets: [{ name: 'x y', max: 1, periodMs: DAY }] })).toThrow(/name/);
    expect(() => createSpendCap({ budgets: [{ name: 'x', max: -1, periodMs: DAY }] })).toThrow(/max/);
    expect(() => createSpendCap({ budgets: [{ name: 'x', max: 1, periodMs: 0 }] })).toThrow(/periodMs/);
  });
});

// One clock for the whole SDK: every `now` option takes `() => Date | number`, so a test clock
// shared by a client, a verifier and a replay store works in all of them.
import { describe, expect, it } from 'vitest';
import { AuthError, createMemoryReplayStore, readClock, signRequest, verifyRequest } from '../src/index.js';

const credentials = { customerId: 'FFFFFFFF-EEEE-DDDD-1234-AB1234567890', apiKey: 'c2VjcmV0LWtleS1ieXRlcw==' };
const T0 = Date.UTC(2024, 0, 2, 3, 4, 5);

describe('readClock', () => {
  it('reads a Date, a number, and the real time without a clock', () => {
    expect(readClock(() => new Date(T0))).toBe(T0);
    expect(readClock(() => T0)).toBe(T0);
    const before = Date.now();
    const now = readClock(undefined);
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });

  it('a Date of another realm is read as a Date', async () => {
    const { runInNewContext } = await import('node:vm');
    const foreign = runInNewContext(`new Date(${T0})`) as Date;
    expect(foreign instanceof Date).toBe(false);
    expect(readClock(() => foreign)).toBe(T0);
  });

  for (const [name, value] of [
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['an invalid Date', new Date('nope')],
    ['a string', '2024-01-02'],
    ['undefined', undefined],
  ] as const) {
    it(`a clock that gives ${name}: an AuthError (invalid_option) that says what a clock returns`, () => {
      let error: unknown;
      try {
        readClock(() => value as unknown as number);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(AuthError);
      expect((error as AuthError).code).toBe('invalid_option');
      expect((error as AuthError).message).toMatch(/a Date or epoch milliseconds/);
    });
  }
});

describe('one clock, every now option', () => {
  for (const [name, clock] of [
    ['() => number', () => T0],
    ['() => Date', () => new Date(T0)],
  ] as const) {
    it(`${name}: verifyRequest and createMemoryReplayStore read it alike`, async () => {
      let now: number = T0;
      const tick = () => (typeof clock() === 'number' ? now : new Date(now));
      const replayStore = createMemoryReplayStore({ now: tick });
      const signed = signRequest({ method: 'GET', url: '/v1/x' }, credentials, { date: new Date(T0), nonce: 'nonce-0001' });
      const options = { credentials: () => credentials, now: tick, replayStore };
      expect(await verifyRequest({ method: 'GET', url: '/v1/x', headers: signed.headers }, options)).toMatchObject({ ok: true });
      expect(await verifyRequest({ method: 'GET', url: '/v1/x', headers: signed.headers }, options)).toMatchObject({ ok: false, reason: 'nonce_reused' });
      // The store forgets a key after its ttl by the same clock.
      expect(replayStore.claim('k', 1_000)).toBe(true);
      expect(replayStore.claim('k', 1_000)).toBe(false);
      now = T0 + 1_001;
      expect(replayStore.claim('k', 1_000)).toBe(true);
    });
  }
});

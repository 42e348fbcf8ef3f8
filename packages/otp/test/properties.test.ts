// Properties over random sequences of calls: the guard lets through exactly what its sliding
// windows allow (never more, never less), on both stores; the flow never sends more than its limits
// allow, never compares more codes than its attempts, and never answers valid for a wrong code.
import fc from 'fast-check';
import { Cluster, Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startRedisCluster, type RedisCluster } from '../../../testing/redis-cluster.js';
import { createGuard, createMemoryStore, createOtp, type OtpStore } from '../src/index.js';
import { createRedisStore } from '../src/redis.js';
import { clock, emulated } from './support.js';

const redis = new Redis(inject('redisPort'), '127.0.0.1');
afterAll(() => redis.quit());
// A three-master Cluster: with the default prefix, a decision's keys lie in several slots, so the
// store reads per slot, decides, and writes per slot (its Cluster path).
let cluster: RedisCluster | undefined;
let clustered: Cluster | undefined;
beforeAll(async () => {
  cluster = await startRedisCluster(3);
  clustered = new Cluster(cluster.ports.map((port) => ({ host: '127.0.0.1', port })));
  await new Promise((resolve, reject) => (clustered!.once('ready', resolve), clustered!.once('error', reject)));
}, 30_000);
afterAll(async () => {
  clustered?.disconnect();
  await cluster?.stop();
});
let run = 0;

const PHONES = ['447700900101', '447700900102', '447700900203'];
const IPS = ['198.51.100.1', '198.51.100.2'];
const ACCOUNTS = [undefined, 'a1', 'a2'];
const LIMITS = {
  phone: { max: 3, windowMs: 60_000 },
  ip: { max: 4, windowMs: 90_000 },
  prefix: { max: 5, windowMs: 120_000 },
  account: { max: 2, windowMs: 50_000 },
};

// Advances of any length, and of whole seconds: the windows are whole seconds, so checks often land
// on a window's edge (the millisecond before it: the example test in guard.test.ts).
const advance = fc.oneof(fc.integer({ min: 0, max: 40_000 }), fc.integer({ min: 0, max: 40 }).map((s) => s * 1000));
const step = fc.oneof(
  fc.record({ kind: fc.constant('check' as const), phone: fc.nat(2), ip: fc.nat(1), account: fc.nat(2) }),
  fc.record({ kind: fc.constant('advance' as const), ms: advance }),
);

async function guardProperty(makeStore: () => OtpStore, numRuns: number) {
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 10, maxLength: 60 }), async (steps) => {
      const time = clock();
      const guard = createGuard({ store: makeStore(), now: time.now, limits: LIMITS, pumping: false });
      const log: Array<{ at: number; keys: Record<string, string | undefined> }> = [];
      for (const s of steps) {
        if (s.kind === 'advance') {
          time.advance(s.ms);
          continue;
        }
        const phone = PHONES[s.phone]!;
        const keys = { phone, ip: IPS[s.ip], prefix: phone.slice(0, -3), account: ACCOUNTS[s.account] };
        const at = time.now();
        // What the windows allow: fewer than max allowed events of each key within its window.
        const room = (Object.keys(LIMITS) as Array<keyof typeof LIMITS>).every((scope) => {
          const { max, windowMs } = LIMITS[scope];
          if (keys[scope] === undefined) return true;
          return log.filter((e) => e.keys[scope] === keys[scope] && e.at > at - windowMs).length < max;
        });
        const decision = await guard.check({ phoneNumber: phone, ip: keys.ip, account: keys.account });
        expect(decision.allowed).toBe(room);
        if (decision.allowed) log.push({ at, keys });
        else expect(decision.retryAfterMs).toBeGreaterThan(0);
      }
    }),
    { numRuns },
  );
}

describe('guard properties', () => {
  it('memory: allowed exactly when every sliding window has room', () => guardProperty(() => createMemoryStore({ maxEntries: 1000 }), 200));
  it('redis: allowed exactly when every sliding window has room', () => guardProperty(() => createRedisStore({ client: redis, prefix: `prop:${process.pid}:${++run}:` }), 40));
  it('redis cluster, keys over several slots: allowed exactly when every sliding window has room', () => guardProperty(() => createRedisStore({ client: clustered!, prefix: `prop:${++run}:` }), 25));
});

const startStep = fc.record({ kind: fc.constant('start' as const), phone: fc.nat(1) });
const flowStep = fc.oneof(
  { arbitrary: startStep, weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('resend' as const), flow: fc.nat(3), call: fc.boolean() }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('check' as const), flow: fc.nat(3), right: fc.nat(3).map((n) => n === 0), typed: fc.stringMatching(/^\d{6}$/) }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: advance }), weight: 3 },
);

describe('flow properties (against the emulator)', () => {
  it('no sequence gets more sends than the limits allow, more attempts than allowed, or valid for a wrong code', async () => {
    const MAX_ATTEMPTS = 3;
    const MAX_RESENDS = 2;
    const PHONE_LIMIT = { max: 6, windowMs: 300_000 };
    await fc.assert(
      // Each sequence starts flows first and is long enough to use up attempts and resends (short
      // sequences without a start, fast-check's bias, would check nothing).
      fc.asyncProperty(fc.array(startStep, { minLength: 1, maxLength: 3 }), fc.array(flowStep, { minLength: 10, maxLength: 40 }), async (starts, rest) => {
        const steps = [...starts, ...rest];
        const { client, emulator } = emulated();
        const time = clock();
        const otp = createOtp({
          client, now: time.now, maxAttempts: MAX_ATTEMPTS, maxResends: MAX_RESENDS, resendCooldownMs: 10_000, codeTtlMs: 200_000,
          guard: { now: time.now, limits: { phone: PHONE_LIMIT }, pumping: false },
        });
        const flows: Array<{ id: string; phone: string; codes: string[]; sends: number; compared: number; valid: boolean }> = [];
        const sendTimes = new Map<string, number[]>();
        const sent = (flow: (typeof flows)[number]) => {
          flow.codes.push(emulator.outbox.latest(flow.phone)!.code!);
          flow.sends += 1;
          sendTimes.set(flow.phone, [...(sendTimes.get(flow.phone) ?? []), time.now()]);
        };
        for (const s of steps) {
          if (s.kind === 'advance') time.advance(s.ms);
          else if (s.kind === 'start') {
            const phone = ['15555550100', '15555550106'][s.phone]!;
            const answer = await otp.start({ phoneNumber: phone });
            if (answer.status === 'sent') {
              flows.push({ id: answer.id, phone, codes: [], sends: 0, compared: 0, valid: false });
              sent(flows.at(-1)!);
            }
          } else if (flows.length) {
            const flow = flows[s.flow % flows.length]!;
            if (s.kind === 'resend') {
              const answer = await otp.resend(flow.id, s.call ? { channel: 'call' } : undefined);
              if (answer.status === 'sent') sent(flow);
            } else {
              const code = s.right ? flow.codes.at(-1)! : flow.codes.includes(s.typed) ? "0000000" : s.typed;
              const answer = await otp.check(flow.id, code);
              if (answer.status === 'valid' || answer.status === 'invalid') flow.compared += 1;
              if (answer.status === 'valid') {
                expect(code).toBe(flow.codes.at(-1));
                expect(flow.valid).toBe(false);
                flow.valid = true;
              }
            }
          }
        }
        for (const flow of flows) {
          expect(flow.sends).toBeLessThanOrEqual(1 + MAX_RESENDS);
          expect(flow.compared).toBeLessThanOrEqual(MAX_ATTEMPTS);
        }
        for (const times of sendTimes.values()) {
          for (const t of times) expect(times.filter((u) => u >= t && u < t + PHONE_LIMIT.windowMs).length).toBeLessThanOrEqual(PHONE_LIMIT.max);
        }
        // Every send the flow made reached the emulator's outbox, and nothing else did.
        expect(emulator.outbox.list()).toHaveLength(flows.reduce((n, f) => n + f.sends, 0));
      }),
      { numRuns: 60 },
    );
  }, 60_000);
});

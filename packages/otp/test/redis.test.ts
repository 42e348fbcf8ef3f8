// On a real redis-server: two processes share flows and limits; Redis killed mid-flow.
import { createClient } from '@x/client';
import { DEFAULT_CUSTOMER } from '@x/emulator';
import { startEmulator, type RunningEmulator } from '@x/emulator/node';
import { Redis } from 'ioredis';
import { spawn, execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../../testing/support.js';
import { createGuard, createOtp, type GuardEvent } from '../src/index.js';
import { createRedisStore } from '../src/redis.js';
import { countryOf } from '../src/phone.js';
import { emulated, wrong, countingEvals } from './support.js';

const run = promisify(execFile);
const fixture = fileURLToPath(new URL('./fixtures/otp-process.mjs', import.meta.url));
const PHONE = '15555550100';
const SECRET = 'a secret of the tests, 32 characters or more';

describe('two processes sharing one Redis', () => {
  let emulator: RunningEmulator;
  const redis = new Redis(inject('redisPort'), '127.0.0.1');
  const prefix = `two:${process.pid}:`;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, logger: { error() {}, warn() {} } });
  });
  afterAll(async () => {
    await emulator.close();
    await redis.quit();
  });
  const other = async (call: string, ...args: unknown[]) => {
    const { stdout } = await run(process.execPath, [fixture, JSON.stringify({ redisPort: inject('redisPort'), emulatorUrl: emulator.url, prefix, call, args })]);
    return JSON.parse(stdout);
  };

  it('a flow started here is resent and checked in another process; the number limit counts sends of both', async () => {
    const otp = createOtp({
      client: createClient({ ...DEFAULT_CUSTOMER, baseUrl: emulator.url }),
      store: createRedisStore({ client: redis, prefix }),
      secret: SECRET,
      guard: { limits: { phone: { max: 2, windowMs: 600_000 } } },
      resendCooldownMs: 0,
    });
    const started = await otp.start({ phoneNumber: PHONE });
    expect(started).toMatchObject({ status: 'sent', channel: 'sms' });
    if (started.status !== 'sent') return;
    expect(await other('resend', started.id)).toMatchObject({ status: 'sent', id: started.id });
    // Two sends to the number, one per process: a third, from either, is refused.
    expect(await otp.start({ phoneNumber: PHONE })).toMatchObject({ status: 'refused', reason: 'phone_limit' });
    expect(await other('start', { phoneNumber: PHONE })).toMatchObject({ status: 'refused', reason: 'phone_limit' });
    const code = emulator.emulator.outbox.latest(PHONE)!.code!;
    expect(await other('check', started.id, code === '000000' ? '000001' : '000000')).toEqual({ status: 'invalid', attemptsLeft: 4 });
    expect(await other('check', started.id, code)).toEqual({ status: 'valid', phoneNumber: PHONE });
    expect(await otp.check(started.id, code)).toEqual({ status: 'expired' });
  }, 60_000);
});

describe('Redis killed mid-flow', () => {
  it('the flow answers store_unavailable, the guard fails closed (or open when asked), nothing throws', async () => {
    const port = await freePort();
    const server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    const redis = new Redis(port, '127.0.0.1', { maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null, lazyConnect: true });
    redis.on('error', () => {}); // refused connections while it starts and after it is killed: the calls answer them
    try {
      for (let i = 0; i < 100; i++) {
        try {
          await redis.connect();
          break;
        } catch {
          await new Promise((r) => setTimeout(r, 50));
        }
      }
      const emulator = await startEmulator({ port: 0, logger: { error() {}, warn() {} } });
      const store = createRedisStore({ client: redis });
      const events: GuardEvent[] = [];
      const otp = createOtp({ client: createClient({ ...DEFAULT_CUSTOMER, baseUrl: emulator.url }), store, secret: SECRET, guard: { onEvent: (e) => events.push(e) } });
      const started = await otp.start({ phoneNumber: PHONE });
      expect(started).toMatchObject({ status: 'sent' });
      if (started.status !== 'sent') return;

      server.kill('SIGKILL');
      await new Promise((resolve) => server.once('exit', resolve));

      const code = emulator.emulator.outbox.latest(PHONE)!.code!;
      expect(await otp.check(started.id, code)).toEqual({ status: 'refused', reason: 'store_unavailable', retryAfterMs: 0 });
      expect(await otp.resend(started.id)).toEqual({ status: 'refused', reason: 'store_unavailable', retryAfterMs: 0 });
      expect(await otp.start({ phoneNumber: PHONE })).toEqual({ status: 'refused', reason: 'store_unavailable', retryAfterMs: 0 });
      expect(events.map((e) => e.type)).toEqual(['store_unavailable']);
      const open = createGuard({ store, failOpen: true });
      expect(await open.check({ phoneNumber: PHONE })).toMatchObject({ allowed: true, degraded: true });
      await emulator.close();
    } finally {
      server.kill('SIGKILL');
      redis.disconnect();
    }
  });
});

describe('concurrent checks of one flow on Redis', () => {
  it('the right code typed twice at once is valid once: the other check answers expired', async () => {
    const redis = new Redis(inject('redisPort'), '127.0.0.1');
    const emulator = await startEmulator({ port: 0, logger: { error() {}, warn() {} } });
    try {
      const store = createRedisStore({ client: redis, prefix: `race:${process.pid}:` });
      const otp = createOtp({ client: createClient({ ...DEFAULT_CUSTOMER, baseUrl: emulator.url }), store, secret: SECRET, guard: false });
      const started = await otp.start({ phoneNumber: PHONE });
      if (started.status !== 'sent') throw new Error('not sent');
      const code = emulator.emulator.outbox.latest(PHONE)!.code!;
      const answers = await Promise.all(Array.from({ length: 5 }, () => otp.check(started.id, code)));
      expect(answers.filter((a) => a.status === 'valid')).toHaveLength(1);
      expect(answers.filter((a) => a.status === 'expired')).toHaveLength(4);
    } finally {
      await emulator.close();
      await redis.quit();
    }
  });
});

describe('round trips on Redis', () => {
  it('a guard decision is one script, whatever it checks; a check of a code is one more', async () => {
    const redis = new Redis(inject('redisPort'), '127.0.0.1');
    const { client: counted, counter } = countingEvals(redis);
    try {
      const store = createRedisStore({ client: counted, prefix: `trips:${process.pid}:` });
      const guard = createGuard({ store, countryOf, countries: { deny: ['FR'] }, budget: { maxPerMinute: 100 }, limits: { phone: { max: 2, windowMs: 60_000 }, country: { max: 100, windowMs: 60_000 } } });
      const numbers = ['447700900101', '447700900101', '447700900101', '15555550100', '33612345678'];
      const decisions = [];
      for (const phoneNumber of numbers) decisions.push(await guard.check({ phoneNumber, ip: '198.51.100.7', account: 'a1' }));
      expect(decisions.map((d) => (d.allowed ? 'allowed' : d.reason))).toEqual(['allowed', 'allowed', 'phone_limit', 'allowed', 'country_denied']);
      expect(counter.evals).toBe(4); // the denied country is refused before the store is asked

      const { client, codeOf } = emulated();
      const otp = createOtp({ client, store, secret: SECRET, guard: false });
      const started = await otp.start({ phoneNumber: PHONE });
      if (started.status !== 'sent') throw new Error('not sent');
      counter.evals = 0;
      expect(await otp.check(started.id, wrong(codeOf(PHONE)!))).toMatchObject({ status: 'invalid' });
      expect(counter.evals).toBe(1);
    } finally {
      await redis.quit();
    }
  });
});


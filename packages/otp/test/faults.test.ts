// Faults and small truths: a stalled store bounds every decision, Redis killed while an SMS is on
// its way never orphans or doubles the send, codes and who asked stay secret at rest, round trips
// are what the README says, the clock is read at call time, locales are read as browsers send them.
import { createClient, type Client } from '@x/client';
import { DEFAULT_CUSTOMER } from '@x/emulator';
import { startEmulator, type RunningEmulator } from '@x/emulator/node';
import { Redis } from 'ioredis';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { freePort } from '../../../testing/support.js';
import { createGuard, createMemoryStore, createOtp, type OtpEvent, type OtpSender } from '../src/index.js';
import { createRedisStore } from '../src/redis.js';
import { emulated, wrong, countingEvals } from './support.js';

const PHONE = '15555550100';
const SECRET = 'a secret of the tests, 32 characters or more';
const quiet = { logger: { error() {}, warn() {} } };

/** A TCP server that accepts connections and never answers: a stalled Redis. */
async function stalledServer(): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets: Socket[] = [];
  const server: Server = createServer((socket) => void sockets.push(socket));
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { port, close: () => new Promise((resolve) => { for (const s of sockets) s.destroy(); server.close(() => resolve()); }) };
}

const ping = async (redis: Redis) => {
  for (let i = 0; i < 100; i++) {
    try {
      if ((await redis.ping()) === 'PONG') return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('redis-server did not answer');
};

describe('a stalled store', () => {
  it('a start answers store_unavailable within the time limit (the README client would wait over a minute); the guard fails closed with an event', async () => {
    const stalled = await stalledServer();
    const redis = new Redis(stalled.port, '127.0.0.1');
    redis.on('error', () => {});
    try {
      const { client, emulator } = emulated();
      const events: OtpEvent[] = [];
      const otp = createOtp({ client, store: createRedisStore({ client: redis }), secret: SECRET, storeTimeoutMs: 300, onEvent: (e) => events.push(e) });
      expect(await otp.start({ phoneNumber: PHONE })).toEqual({ status: 'refused', reason: 'store_unavailable', retryAfterMs: 0 });
      expect(await otp.check('any-id', '123456')).toEqual({ status: 'refused', reason: 'store_unavailable', retryAfterMs: 0 });
      expect(await otp.resend('any-id')).toEqual({ status: 'refused', reason: 'store_unavailable', retryAfterMs: 0 });
      expect(events.map((e) => e.type)).toEqual(['store_unavailable']);
      expect(emulator.outbox.list()).toHaveLength(0);
      const guard = createGuard({ store: createRedisStore({ client: redis }), storeTimeoutMs: 300 });
      expect(await guard.check({ phoneNumber: PHONE })).toEqual({ allowed: false, reason: 'store_unavailable', retryAfterMs: 0 });
    } finally {
      redis.disconnect();
      await stalled.close();
    }
  }, 15_000);
});

describe('Redis killed while the SMS of a start is on its way', () => {
  let dir: string;
  let server: ChildProcess | undefined;
  let emulator: RunningEmulator;
  const startRedis = (port: number) =>
    spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes', '--appendfsync', 'always', '--dir', dir], { stdio: 'ignore' });
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'otp-aof-'));
    emulator = await startEmulator({ port: 0, ...quiet });
  });
  afterAll(async () => {
    server?.kill('SIGKILL');
    await emulator.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the start answers sent with its id (unconfirmed); when Redis is back the code checks; nothing is sent twice', async () => {
    const port = await freePort();
    server = startRedis(port);
    const redis = new Redis(port, '127.0.0.1', { maxRetriesPerRequest: 1 });
    redis.on('error', () => {});
    await ping(redis);
    const client = createClient({ ...DEFAULT_CUSTOMER, baseUrl: emulator.url, retry: false });
    // The service's verify endpoint, with Redis killed while the request is on its way.
    const killing: OtpSender = {
      channels: ['sms'],
      async send(c: Client, message) {
        const answer = c.verify.sms({ phoneNumber: message.phoneNumber, verifyCode: message.code });
        server!.kill('SIGKILL');
        await new Promise((resolve) => server!.once('exit', resolve));
        return (await answer).data.reference_id;
      },
      check: async () => 'invalid',
      complete: async () => undefined,
    };
    const events: OtpEvent[] = [];
    const otp = createOtp({ client, store: createRedisStore({ client: redis }), secret: SECRET, sender: killing, storeTimeoutMs: 500, onEvent: (e) => events.push(e) });
    const started = await otp.start({ phoneNumber: PHONE });
    expect(started).toMatchObject({ status: 'sent', unconfirmed: true });
    if (started.status !== 'sent') return;
    expect(events).toMatchObject([{ type: 'store_unavailable', id: started.id, operation: 'record_send' }]);

    server = startRedis(port); // back, with what it had written
    await ping(redis);
    const code = emulator.emulator.outbox.latest(PHONE)!.code!;
    expect(await otp.check(started.id, code)).toEqual({ status: 'valid', phoneNumber: PHONE });
    expect(emulator.emulator.outbox.list().filter((m) => m.phoneNumber === PHONE)).toHaveLength(1);
    redis.disconnect();
  }, 30_000);
});

describe('secrets at rest on Redis', () => {
  const redis = new Redis(inject('redisPort'), '127.0.0.1');
  afterAll(() => redis.quit());

  it('no stored value holds the code or anything it can be computed from; with hashKeys, no key name holds the number, the range, the IP or the account', async () => {
    const prefix = `rest:${process.pid}:`;
    const { client, codeOf } = emulated();
    const otp = createOtp({ client, store: createRedisStore({ client: redis, prefix }), secret: SECRET, guard: { hashKeys: SECRET } });
    const started = await otp.start({ phoneNumber: '+44 7700 900123', ip: '203.0.113.77', account: 'alice@example.com' });
    if (started.status !== 'sent') throw new Error('not sent');
    const code = codeOf('447700900123')!;
    const keys = await redis.keys(`${prefix}*`);
    expect(keys.length).toBeGreaterThan(3);
    const dump: string[] = [];
    for (const key of keys) {
      const type = await redis.type(key);
      const values = type === 'hash' ? await redis.hgetall(key) : type === 'list' ? await redis.lrange(key, 0, -1) : [await redis.get(key)];
      dump.push(key, ...Object.entries(values).flat().map(String));
    }
    const text = dump.join('\n');
    expect(keys.join('\n')).not.toMatch(/447700900|203\.0\.113|alice/);
    expect(text).not.toContain(code);
    const flow = await redis.hgetall(`${prefix}f:{${started.id}}`);
    expect(Object.keys(flow).sort()).toEqual(['account', 'attempts', 'channel', 'createdAt', 'expiresAt', 'id', 'ip', 'lastSendAt', 'locale', 'phoneNumber', 'referenceId', 'sends', 'state']);
  });

  it('a store shared between processes needs the secret, which says how to make one', () => {
    const { client } = emulated();
    expect(() => createOtp({ client, store: createRedisStore({ client: redis }) })).toThrow(/secret.*openssl rand/);
    expect(() => createOtp({ client, secret: 'short' })).toThrow(/at least 32 characters/);
  });
});

describe('round trips on Redis', () => {
  it('start 2, a wrong code 1, the right code 2, resend 3, cancel 1', async () => {
    const redis = new Redis(inject('redisPort'), '127.0.0.1');
    const { client: counted, counter } = countingEvals(redis);
    try {
      const { client, codeOf } = emulated();
      const otp = createOtp({ client, store: createRedisStore({ client: counted, prefix: `trips2:${process.pid}:` }), secret: SECRET, resendCooldownMs: 0 });
      const count = async <T>(op: () => Promise<T>) => {
        counter.evals = 0;
        await op();
        return counter.evals;
      };
      let id = '';
      expect(await count(async () => { const s = await otp.start({ phoneNumber: PHONE, ip: '198.51.100.7' }); if (s.status === 'sent') id = s.id; })).toBe(2);
      expect(await count(() => otp.resend(id, { channel: 'sms' }))).toBe(3);
      expect(await count(() => otp.check(id, wrong(codeOf(PHONE)!)))).toBe(1);
      expect(await count(() => otp.check(id, codeOf(PHONE)!))).toBe(2);
      expect(await count(() => otp.cancel(id))).toBe(1);
    } finally {
      await redis.quit();
    }
  });
});

describe('the clock and the locale', () => {
  afterEach(() => vi.useRealTimers());

  it('the clock is read at call time: fake timers installed after createOtp move it, for the flow and its guard', async () => {
    const { client, codeOf } = emulated();
    const otp = createOtp({ client, codeTtlMs: 60_000, guard: { limits: { phone: { max: 1, windowMs: 60_000 } } } });
    vi.useFakeTimers({ toFake: ['Date'] });
    const started = await otp.start({ phoneNumber: PHONE });
    if (started.status !== 'sent') throw new Error('not sent');
    vi.setSystemTime(Date.now() + 60_000);
    expect(await otp.check(started.id, codeOf(PHONE)!)).toEqual({ status: 'expired' });
    expect(await otp.start({ phoneNumber: PHONE })).toMatchObject({ status: 'sent' }); // the guard's window moved too
  });

  it('createOtp({ now }) is the guard\'s clock too', async () => {
    const { client } = emulated();
    let at = 1_800_000_000_000;
    const otp = createOtp({ client, now: () => at, guard: { limits: { phone: { max: 1, windowMs: 60_000 } } } });
    expect(await otp.start({ phoneNumber: PHONE })).toMatchObject({ status: 'sent' });
    expect(await otp.start({ phoneNumber: PHONE })).toMatchObject({ status: 'refused', reason: 'phone_limit', retryAfterMs: 60_000 });
    at += 60_000;
    expect(await otp.start({ phoneNumber: PHONE })).toMatchObject({ status: 'sent' });
  });

  it('locales as browsers send them are accepted; an unknown one falls back to the default with an event, never throwing', async () => {
    const { emulator } = emulated();
    const languages: Array<string | null> = [];
    const client = createClient({
      ...DEFAULT_CUSTOMER, baseUrl: 'http://emulator.local', retry: false,
      fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
        const request = new Request(input, init);
        languages.push(new URLSearchParams(await request.clone().text()).get('language'));
        return emulator.fetch(request);
      },
    });
    const events: OtpEvent[] = [];
    const otp = createOtp({ client, guard: false, onEvent: (e) => events.push(e) });
    for (const locale of ['en', 'en_GB', 'en-gb', 'fr-FR', 'klingon', 'x']) expect(await otp.start({ phoneNumber: PHONE, locale })).toMatchObject({ status: 'sent' });
    expect(events).toEqual([{ type: 'locale_fallback', locale: 'klingon' }, { type: 'locale_fallback', locale: 'x' }]);
    expect(languages).toEqual(['en-US', 'en-GB', 'en-GB', 'fr-FR', null, null]);
  });

  it('the memory store needs no secret: codes are made from a random one', async () => {
    const { client, codeOf } = emulated();
    const otp = createOtp({ client, store: createMemoryStore() });
    const started = await otp.start({ phoneNumber: PHONE });
    if (started.status !== 'sent') throw new Error('not sent');
    expect(await otp.check(started.id, codeOf(PHONE)!)).toMatchObject({ status: 'valid' });
  });
});

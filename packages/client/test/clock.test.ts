// The client's `now` takes `() => Date | number`, like every `now` option of the SDK: one test
// clock (a number, as the emulator's and the replay store's) fits the client too.
import { DEFAULT_CUSTOMER } from '@x/emulator';
import { createMemoryReplayStore, verifyRequest } from '@x/auth';
import { describe, expect, it } from 'vitest';
import { AuthenticationError, ConfigurationError, createClient, type ClientOptions } from '../src/index.js';
import { useServers } from './servers.js';

const servers = useServers();
const T0 = Date.UTC(2024, 0, 2, 3, 4, 5);
const failure = (promise: Promise<unknown>) => promise.then(() => expect.fail('expected a failure'), (e: unknown) => e);
const client = (now: ClientOptions['now'], extra: Partial<ClientOptions> = {}) => createClient({ ...DEFAULT_CUSTOMER, baseUrl: servers.recorder.url, retry: false, now, ...extra });
const sms = { phoneNumber: '15555550300', message: 'hello', messageType: 'ARN' as const };

describe('now: () => Date | number', () => {
  for (const [name, clock] of [
    ['() => number', () => T0],
    ['() => Date', () => new Date(T0)],
  ] as const) {
    it(`${name}: the request is signed at that time, and a verifier on the same clock accepts it`, async () => {
      await client(clock).messaging.send(sms);
      const [request] = servers.recorder.requests;
      expect(request!.headers['x-ts-date']).toBe(new Date(T0).toUTCString());
      const verified = await verifyRequest(
        { method: request!.method, url: request!.path, headers: request!.headers, body: request!.body },
        { credentials: () => DEFAULT_CUSTOMER, now: clock, replayStore: createMemoryReplayStore({ now: clock }) },
      );
      expect(verified).toMatchObject({ ok: true });
    });

    it(`${name}: the clock offset of an AuthenticationError is measured against it`, async () => {
      servers.recorder.script({ status: 401, body: { status: { code: 10004, description: 'Date out of range' } }, headers: { date: new Date(T0 + 3_600_000).toUTCString() } });
      const error = (await failure(client(clock).messaging.send(sms))) as AuthenticationError;
      expect(error.clockOffsetMs).toBe(3_600_000);
    });
  }

  it('a clock that gives no time: a ConfigurationError that says what a clock returns, nothing sent', async () => {
    const error = await failure(client(() => Number.NaN).messaging.send(sms));
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toMatch(/a Date or epoch milliseconds/);
    expect(servers.recorder.requests).toHaveLength(0);
  });

  it('now that is not a function: a ConfigurationError at createClient', () => {
    expect(() => client(T0 as unknown as () => number)).toThrow(ConfigurationError);
  });
});

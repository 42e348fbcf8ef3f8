// The time limits of `waitFor` and `idle` run on real time, even under fake timers
// (vi.useFakeTimers replaces globalThis.setTimeout and Date): a wait that can never end fails with
// what it saw instead of hanging the test until the runner's own timeout.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEmulator, DEFAULT_CUSTOMER, EmulatorError, type Emulator } from '../src/index.js';
import { local, startCallbackRecorder } from './helpers.js';

// A test that hangs fails at this (the runner's limit, real time) rather than at the suite's 20 s.
const RUNNER_LIMIT_MS = 4_000;

let emulator: Emulator | undefined;
afterEach(() => {
  vi.useRealTimers();
  emulator?.close();
  emulator = undefined;
});

async function rejection(promise: Promise<unknown>): Promise<EmulatorError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(EmulatorError);
  return error as EmulatorError;
}

describe('waitFor under vi.useFakeTimers()', () => {
  it(
    'a wait that never matches rejects after its timeoutMs of real time, saying what it saw',
    async () => {
      emulator = createEmulator({ deliveryDelayMs: 0 });
      await local(emulator, 'POST', '/v1/messaging', { form: { phone_number: '15555550170', message: 'seen', message_type: 'ARN' } });
      await emulator.idle();
      vi.useFakeTimers();
      const error = await rejection(emulator.waitFor({ outbox: { phoneNumber: '15555550199' } }, { timeoutMs: 300 }));
      expect(error.code).toBe('wait_timeout');
      expect(error.message).toMatch(/^waitFor timed out after 300 ms: no outbox message matched .*15555550199.*messages to 15555550170/);
    },
    RUNNER_LIMIT_MS,
  );

  it(
    'with fake timers installed before the emulator was created, too',
    async () => {
      vi.useFakeTimers();
      emulator = createEmulator();
      const error = await rejection(emulator.waitFor(() => false, { timeoutMs: 200 }));
      expect(error.message).toMatch(/timed out after 200 ms: the predicate never returned a value/);
    },
    RUNNER_LIMIT_MS,
  );

  it(
    'a wait that matches still resolves: the check runs at every event, fake timers or not',
    async () => {
      emulator = createEmulator({ deliveryDelayMs: 0 });
      vi.useFakeTimers();
      const waiting = emulator.waitFor({ journal: { path: '/v1/messaging' } }, { timeoutMs: 1_000 });
      await local(emulator, 'POST', '/v1/messaging', { form: { phone_number: '15555550171', message: 'x', message_type: 'ARN' } });
      expect((await waiting).status).toBe(200);
    },
    RUNNER_LIMIT_MS,
  );
});

describe('idle under vi.useFakeTimers()', () => {
  it(
    'a delivery due on a clock the fake timers hold still: idle rejects with what it waits for and how to move the clock',
    async () => {
      const receiver = await startCallbackRecorder();
      try {
        vi.useFakeTimers();
        emulator = createEmulator({ deliveryDelayMs: 5_000, customers: [{ ...DEFAULT_CUSTOMER, callbackUrl: receiver.url }] });
        expect((await local(emulator, 'POST', '/v1/messaging', { form: { phone_number: '15555550172', message: 'x', message_type: 'ARN' } })).status).toBe(200);
        const error = await rejection(emulator.idle({ timeoutMs: 300 }));
        expect(error.code).toBe('wait_timeout');
        expect(error.message).toMatch(/^idle timed out after 300 ms of real time: 1 scheduled task\(s\) \(delivery or status change\) wait for the emulator's clock to reach .*; it reads .* and did not move/);
        expect(error.message).toMatch(/Fake timers/);
        // Moving the fake clock lets it finish: the callback is sent.
        vi.advanceTimersByTime(5_000);
        await emulator.idle({ timeoutMs: 2_000 });
        expect(receiver.received).toHaveLength(1);
      } finally {
        await receiver.close();
      }
    },
    RUNNER_LIMIT_MS,
  );

  it(
    'without a timeoutMs, a clock that does not move is found out in about a second: idle never hangs on it',
    async () => {
      vi.useFakeTimers();
      emulator = createEmulator({ deliveryDelayMs: 60_000, customers: [{ ...DEFAULT_CUSTOMER, callbackUrl: 'http://127.0.0.1:9/cb' }] });
      await local(emulator, 'POST', '/v1/messaging', { form: { phone_number: '15555550173', message: 'x', message_type: 'ARN' } });
      const error = await rejection(emulator.idle());
      expect(error.message).toMatch(/^idle stopped: 1 scheduled task.* wait for the emulator's clock to reach .*; it reads .* and did not move in 1000 ms of real time/);
    },
    RUNNER_LIMIT_MS,
  );

  it(
    'a callback retry waiting on a held clock: idle says so',
    async () => {
      const receiver = await startCallbackRecorder({ status: () => 503 });
      try {
        vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
        emulator = createEmulator({ deliveryDelayMs: 0, customers: [{ ...DEFAULT_CUSTOMER, callbackUrl: receiver.url }], callbacks: { retryDelaysMs: [10_000] } });
        await local(emulator, 'POST', '/v1/messaging', { form: { phone_number: '15555550174', message: 'x', message_type: 'ARN' } });
        const error = await rejection(emulator.idle({ timeoutMs: 2_000 }));
        expect(error.message).toMatch(/1 callback retry\(ies\) wait for the emulator's clock/);
        expect(receiver.received).toHaveLength(1);
      } finally {
        await receiver.close();
      }
    },
    RUNNER_LIMIT_MS,
  );

  it(
    'fake setTimeout with the real Date: idle still runs what falls due (it does not wait on the faked timer)',
    async () => {
      const receiver = await startCallbackRecorder();
      try {
        vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
        emulator = createEmulator({ deliveryDelayMs: 50, customers: [{ ...DEFAULT_CUSTOMER, callbackUrl: receiver.url }] });
        await local(emulator, 'POST', '/v1/messaging', { form: { phone_number: '15555550175', message: 'due', message_type: 'ARN' } });
        await emulator.idle({ timeoutMs: 2_000 });
        expect(receiver.received).toHaveLength(1);
      } finally {
        await receiver.close();
      }
    },
    RUNNER_LIMIT_MS,
  );

  it('timeoutMs is checked', async () => {
    emulator = createEmulator();
    await expect(emulator.idle({ timeoutMs: -1 })).rejects.toThrow(/timeoutMs must be a whole number of milliseconds/);
  });
});

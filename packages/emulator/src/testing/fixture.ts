// The fixture of @x/emulator/vitest and @x/emulator/jest: one in-process emulator per test file,
// reset before each test, closed after the last. The runner's hooks are passed in, so the same
// call serves Vitest, Jest (globals or @jest/globals) and node:test, and loading the entry loads
// no test runner.
import { createEmulator, type Emulator } from '../emulator.js';
import { EmulatorError } from '../errors.js';
import type { EmulatorOptions } from '../types.js';

/** The runner's hooks the fixture registers with: Vitest's and Jest's `beforeEach` and `afterAll`; node:test's `beforeEach` and `after`. */
export interface FixtureHooks {
  beforeEach(fn: () => void): unknown;
  afterAll(fn: () => void): unknown;
}

/**
 * An in-process emulator for this test file: created now, `reset()` before each test (outbox,
 * transactions, callbacks, faults, journal, clock), `close()`d after the last. Register the
 * matchers with `expect.extend(emulatorMatchers)`.
 *
 * @example
 * ```ts
 * import { afterAll, beforeEach, expect, test } from 'vitest';
 * import { createClient } from '@x/client';
 * import { DEFAULT_CUSTOMER } from '@x/emulator';
 * import { emulatorMatchers, useEmulator } from '@x/emulator/vitest';
 *
 * expect.extend(emulatorMatchers);
 * const emulator = useEmulator({ beforeEach, afterAll });
 *
 * test('sends a reminder', async () => {
 *   const client = createClient({ ...DEFAULT_CUSTOMER, baseUrl: 'http://emulator.local', fetch: emulator.fetch });
 *   await client.messaging.send({ phoneNumber: '15555551234', message: 'See you at 10', messageType: 'ARN' });
 *   expect(emulator).toHaveSentSms({ to: '+1 555 555 1234', text: 'See you at 10' });
 * });
 * ```
 */
export function useEmulator(hooks: FixtureHooks, options?: EmulatorOptions): Emulator {
  if (typeof hooks?.beforeEach !== 'function' || typeof hooks.afterAll !== 'function') {
    throw new EmulatorError('invalid_option', "useEmulator: pass the runner's hooks, e.g. useEmulator({ beforeEach, afterAll }) (node:test: { beforeEach, afterAll: after }).");
  }
  const emulator = createEmulator(options);
  hooks.beforeEach(() => emulator.reset());
  hooks.afterAll(() => emulator.close());
  return emulator;
}

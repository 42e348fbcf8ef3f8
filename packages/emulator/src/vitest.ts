/**
 * The emulator in Vitest: `useEmulator({ beforeEach, afterAll })` (one emulator per test file,
 * reset before each test) and `emulatorMatchers` for `expect.extend`, typed on Vitest's `expect`
 * (`toHaveSentSms`, `toHavePlacedCall`, `toHaveDeliveredCallback`). Loads no test runner.
 *
 * @packageDocumentation
 * @module @x/emulator/vitest
 */
import type {} from 'vitest'; // the module augmented below (TypeScript augments a module the program has loaded)
import type { EmulatorMatchers } from './testing/matchers.js';

export { emulatorMatchers } from './testing/matchers.js';
export type { CallbackExpectation, DeliveredCallbackKind, EmulatorMatchers, MatcherContext, MatcherResult, MessageExpectation, TextExpectation } from './testing/matchers.js';
export { useEmulator } from './testing/fixture.js';
export type { FixtureHooks } from './testing/fixture.js';

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any, @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unused-vars -- merged into Vitest's own declaration, whose parameter is `T = any`
  interface Assertion<T = any> extends EmulatorMatchers<void> {}
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AsymmetricMatchersContaining extends EmulatorMatchers<void> {}
}

/**
 * The emulator in Jest: `useEmulator({ beforeEach, afterAll })` (one emulator per test file,
 * reset before each test) and `emulatorMatchers` for `expect.extend`, typed on Jest's `expect`
 * (the `jest` globals of `@types/jest` and `@jest/globals`' `expect`). Loads no test runner:
 * CommonJS and ESM.
 *
 * @packageDocumentation
 * @module @x/emulator/jest
 */
import type {} from 'expect'; // the module augmented below (TypeScript augments a module the program has loaded)
import type { EmulatorMatchers } from './testing/matchers.js';

export { emulatorMatchers } from './testing/matchers.js';
export type { CallbackExpectation, DeliveredCallbackKind, EmulatorMatchers, MatcherContext, MatcherResult, MessageExpectation, TextExpectation } from './testing/matchers.js';
export { useEmulator } from './testing/fixture.js';
export type { FixtureHooks } from './testing/fixture.js';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- @types/jest declares its matchers in this namespace
  namespace jest {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unused-vars -- merged into @types/jest's declaration
    interface Matchers<R, T = {}> extends EmulatorMatchers<R> {}
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface Expect extends EmulatorMatchers<unknown> {}
  }
}

declare module 'expect' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unused-vars -- merged into expect's declaration (what @jest/globals' expect is)
  interface Matchers<R extends void | Promise<void>, T = unknown> extends EmulatorMatchers<R> {}
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AsymmetricMatchers extends EmulatorMatchers<void> {}
}

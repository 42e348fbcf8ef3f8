/// <reference types="jest" />
// The matchers typed on each runner's expect: Vitest's (Assertion, AsymmetricMatchersContaining),
// Jest's @jest/globals expect (the expect package's Matchers) and @types/jest's global jest.Matchers.
import { expect as jestExpect } from 'expect';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { HttpHandler } from 'msw';
import { createEmulator } from '../src/index.js';
import { emulatorHandlers, SERVICE_HOSTS } from '../src/msw.js';
import { emulatorMatchers, useEmulator, type CallbackExpectation, type DeliveredCallbackKind, type FixtureHooks } from '../src/vitest.js';
import type {} from '../src/jest.js';

const emulator = createEmulator();

describe('@x/emulator/vitest types', () => {
  it('types the matchers on Vitest expect, and .not, and as asymmetric matchers', () => {
    expect(emulator).toHaveSentSms({ to: '+1 555 555 1234', text: /code/ });
    expect(emulator).not.toHavePlacedCall();
    expect(emulator).toHaveDeliveredCallback({ kind: 'sms', status: 200 });
    expect({ emulator }).toEqual({ emulator: expect.toHaveSentSms({ text: expect.stringContaining('hi') }) });
    // @ts-expect-error: kind is one of the transaction kinds or inbound
    expect(emulator).toHaveDeliveredCallback({ kind: 'fax' });
    // @ts-expect-error: to is a string
    expect(emulator).toHaveSentSms({ to: 15555551234 });
    expectTypeOf<DeliveredCallbackKind>().toEqualTypeOf<'sms' | 'verify' | 'voice' | 'inbound'>();
    expectTypeOf<CallbackExpectation['status']>().toEqualTypeOf<number | undefined>();
  });

  it('useEmulator takes the runner hooks and returns the emulator; the matchers fit expect.extend', () => {
    expectTypeOf(useEmulator).parameter(0).toEqualTypeOf<FixtureHooks>();
    expectTypeOf(useEmulator).returns.toEqualTypeOf<typeof emulator>();
    expect.extend(emulatorMatchers);
    jestExpect.extend(emulatorMatchers);
  });
});

describe('@x/emulator/jest types', () => {
  it("types the matchers on the expect package's expect (what @jest/globals gives)", () => {
    jestExpect(emulator).toHaveSentSms({ to: '15555551234' });
    jestExpect(emulator).not.toHaveDeliveredCallback({ kind: 'verify' });
    // @ts-expect-error: status is a number
    jestExpect(emulator).toHaveDeliveredCallback({ status: '200' });
  });

  it("types them on @types/jest's jest.Matchers", () => {
    expectTypeOf<jest.Matchers<void>['toHavePlacedCall']>().parameter(0).toEqualTypeOf<{ to?: string; text?: string | RegExp | { asymmetricMatch(actual: unknown): boolean } } | undefined>();
  });
});

describe('@x/emulator/msw types', () => {
  it('answers msw handlers; hosts are origins', () => {
    expectTypeOf(emulatorHandlers(emulator)).toEqualTypeOf<HttpHandler[]>();
    emulatorHandlers(emulator, { hosts: [SERVICE_HOSTS.rest, new URL('https://sms.example.test')] });
    expectTypeOf(SERVICE_HOSTS.verifyApi).toEqualTypeOf<'https://verify.telesign.com'>();
    // @ts-expect-error: hosts is a list
    emulatorHandlers(emulator, { hosts: SERVICE_HOSTS.rest });
  });
});

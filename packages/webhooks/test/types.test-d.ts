import { describe, expectTypeOf, it } from 'vitest';
import { isVerifyCallback, verifyCallback, type CallbackFailure, type CallbackPayload, type CallbackResult, type VerifyCallback } from '../src/index.js';

describe('@x/webhooks public types', () => {
  it('verifyCallback resolves to a discriminated result', () => {
    expectTypeOf(verifyCallback).returns.resolves.toEqualTypeOf<CallbackResult>();
    const result = {} as CallbackResult;
    if (result.ok) expectTypeOf(result.payload).toEqualTypeOf<CallbackPayload>();
    else expectTypeOf(result.reason).toEqualTypeOf<CallbackFailure>();
  });
  it('the verify guard narrows', () => {
    const payload = {} as CallbackPayload;
    if (isVerifyCallback(payload)) expectTypeOf(payload).toEqualTypeOf<VerifyCallback>();
  });
});

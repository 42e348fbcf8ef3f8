import type { DeliveryStore } from '@x/auth';
import { describe, expectTypeOf, it } from 'vitest';
import {
  callbackAnswer,
  handleCallback,
  isVerifyCallback,
  isVoiceEvent,
  verifyCallback,
  verifyCallbackRequest,
  type CallbackAnswer,
  type CallbackFailure,
  type CallbackOptions,
  type CallbackPayload,
  type CallbackResult,
  type HandledCallback,
  type VerifyCallback,
  type VoiceEvent,
  type WebhookErrorCode,
} from '../src/index.js';

describe('@x/webhooks public types', () => {
  it('verifyCallback resolves to a discriminated result', () => {
    expectTypeOf(verifyCallback).returns.resolves.toEqualTypeOf<CallbackResult>();
    const result = {} as CallbackResult;
    if (result.ok) {
      expectTypeOf(result.payload).toEqualTypeOf<CallbackPayload>();
      expectTypeOf(result.complete).returns.toEqualTypeOf<Promise<void>>();
      expectTypeOf(result.abandon).returns.toEqualTypeOf<Promise<void>>();
      expectTypeOf(result.identity).toEqualTypeOf<string>();
    } else expectTypeOf(result.reason).toEqualTypeOf<CallbackFailure>();
    expectTypeOf(verifyCallbackRequest).returns.resolves.toEqualTypeOf<CallbackResult>();
  });
  it('the guards narrow', () => {
    const payload = {} as CallbackPayload;
    if (isVerifyCallback(payload)) expectTypeOf(payload).toEqualTypeOf<VerifyCallback>();
    if (isVoiceEvent(payload)) expectTypeOf(payload.event).toEqualTypeOf<string>();
    expectTypeOf<VoiceEvent['status']>().toEqualTypeOf<undefined>();
  });
  it('the replay store of callbacks is a DeliveryStore; failures include in_progress and body_too_large', () => {
    expectTypeOf<CallbackOptions['replayStore']>().toEqualTypeOf<DeliveryStore | undefined>();
    expectTypeOf<'in_progress' | 'body_too_large'>().toExtend<CallbackFailure>();
    expectTypeOf(callbackAnswer).returns.toEqualTypeOf<CallbackAnswer>();
    expectTypeOf<WebhookErrorCode>().toEqualTypeOf<'body_parsed' | 'body_used' | 'missing_key' | 'invalid_store' | 'outcome_required'>();
  });
  it('handleCallback carries the handler value or the answer to send', () => {
    const handled = {} as HandledCallback<number>;
    if (handled.ok) expectTypeOf(handled.value).toEqualTypeOf<number>();
    else expectTypeOf(handled.answer.status).toEqualTypeOf<number>();
    expectTypeOf(handleCallback<number>).returns.resolves.toEqualTypeOf<HandledCallback<number>>();
  });
});

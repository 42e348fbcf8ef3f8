import { createKeyCache, type DeliveryStore, type KeyCache, type MacProvider } from '@x/auth';
import { nodeMac } from '@x/auth/node';
import type { VerifiedCallback } from '../src/adapter-entry.js';
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
  type LeaseLost,
  type CallbackPayload,
  type CallbackResult,
  type HandledCallback,
  type VerifyCallback,
  type VoiceEvent,
  type WebhookErrorCode,
} from '../src/index.js';
import {
  BodyTooLargeError,
  CallbackVerificationError,
  SMS_STATUS,
  WebhookError,
  XError,
  callbackKind,
  isCallbackKind,
  isSmsStatusCode,
  type BulkSmsCallback,
  type CallbackKind,
  type CodeState,
  type InboundSmsCallback,
  type SmsCallback,
  type VerifyApiCallback,
  type VerifyCallCallback,
  type VerifySmsCallback,
  type VerificationState,
  type VoiceCallback,
} from '../src/index.js';

describe('@x/webhooks public types', () => {
  it('verifyCallback resolves to a discriminated result', () => {
    expectTypeOf(verifyCallback).returns.resolves.toEqualTypeOf<CallbackResult>();
    const result = {} as CallbackResult;
    if (result.ok) {
      expectTypeOf(result.payload).toEqualTypeOf<CallbackPayload>();
      expectTypeOf(result.complete).returns.toEqualTypeOf<Promise<boolean>>();
      expectTypeOf(result.abandon).returns.toEqualTypeOf<Promise<void>>();
      expectTypeOf(result.identity).toEqualTypeOf<string>();
    } else expectTypeOf(result.reason).toEqualTypeOf<CallbackFailure>();
    expectTypeOf(verifyCallbackRequest).returns.resolves.toEqualTypeOf<CallbackResult>();
  });
  it('the HMAC is the one `mac` option of @x/auth (MacProvider, e.g. nodeMac); keys are cached on a KeyCache the caller holds', () => {
    expectTypeOf<CallbackOptions['mac']>().toEqualTypeOf<MacProvider | undefined>();
    expectTypeOf<CallbackOptions['keyCache']>().toEqualTypeOf<KeyCache | undefined>();
    void verifyCallback({ body: '', headers: {} }, { customerId: 'c', apiKey: 'k', mac: nodeMac, keyCache: createKeyCache({ mac: nodeMac }) });
    // @ts-expect-error the second HMAC plug-in type (`signer`) is gone: pass `mac`
    void verifyCallback({ body: '', headers: {} }, { customerId: 'c', apiKey: 'k', signer: () => '' });
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
    expectTypeOf<WebhookErrorCode>().toEqualTypeOf<'body_parsed' | 'body_used' | 'missing_key' | 'invalid_store' | 'outcome_required' | 'missing_options' | 'not_verified' | 'state_contended' | 'unknown_event' | 'invalid_handler' | 'invalid_option' | 'invalid_job'>();
  });
  it('handleCallback carries the handler value or the answer to send', () => {
    const handled = {} as HandledCallback<number>;
    if (handled.ok) expectTypeOf(handled.value).toEqualTypeOf<number>();
    else expectTypeOf(handled.answer.status).toEqualTypeOf<number>();
    expectTypeOf(handleCallback<number>).returns.resolves.toEqualTypeOf<HandledCallback<number>>();
  });
});

// "Types that narrow": callback payloads discriminate; errors share one base.
describe('callback payloads discriminate', () => {
  it('isCallbackKind narrows to the payload of that kind', () => {
    const payload = {} as CallbackPayload;
    if (isCallbackKind(payload, 'verify_sms')) {
      expectTypeOf(payload).toEqualTypeOf<VerifySmsCallback>();
      expectTypeOf(payload.verify.code_state).toEqualTypeOf<CodeState>();
    }
    if (isCallbackKind(payload, 'sms_status')) {
      expectTypeOf(payload).toEqualTypeOf<SmsCallback>();
      expectTypeOf(payload.verify).toEqualTypeOf<undefined>();
    }
    if (isCallbackKind(payload, 'verify_call')) expectTypeOf(payload.sub_resource).toEqualTypeOf<'call'>();
    if (isCallbackKind(payload, 'bulk_sms')) expectTypeOf(payload.session_id).toEqualTypeOf<string | null>();
    if (isCallbackKind(payload, 'inbound_sms')) expectTypeOf(payload.user_response.mo_message).toEqualTypeOf<string>();
    if (isCallbackKind(payload, 'verify_api')) expectTypeOf(payload.state).toEqualTypeOf<VerificationState>();
    if (isCallbackKind(payload, 'voice_event')) expectTypeOf(payload.event).toEqualTypeOf<string>();
    if (isCallbackKind(payload, 'voice')) expectTypeOf(payload).toEqualTypeOf<VoiceCallback>();
    // @ts-expect-error: not a kind
    isCallbackKind(payload, 'fax');
  });

  it('callbackKind names every kind; a switch over it is exhaustive (with a branch for unknown)', () => {
    expectTypeOf(callbackKind).returns.toEqualTypeOf<CallbackKind | 'unknown'>();
    expectTypeOf<CallbackKind>().toEqualTypeOf<'sms_status' | 'verify_sms' | 'verify_call' | 'voice' | 'voice_event' | 'bulk_sms' | 'inbound_sms' | 'verify_api'>();
    const route = (kind: CallbackKind | 'unknown'): string => {
      switch (kind) {
        case 'sms_status':
        case 'bulk_sms':
          return 'deliveries';
        case 'verify_sms':
        case 'verify_call':
        case 'verify_api':
          return 'verifications';
        case 'voice':
        case 'voice_event':
          return 'calls';
        case 'inbound_sms':
          return 'inbox';
        case 'unknown':
          return 'log';
        default:
          return kind satisfies never;
      }
    };
    expectTypeOf(route).returns.toEqualTypeOf<string>();
    expectTypeOf<CallbackPayload>().toEqualTypeOf<
      SmsCallback | VerifySmsCallback | VerifyCallCallback | VoiceCallback | VoiceEvent | BulkSmsCallback | InboundSmsCallback | VerifyApiCallback
    >();
  });

  it('the sub_resource and verify fields narrow by hand too', () => {
    const payload = {} as CallbackPayload;
    if (payload.sub_resource === 'sms') {
      if (payload.verify) expectTypeOf(payload).toEqualTypeOf<VerifySmsCallback>();
      else expectTypeOf(payload).toEqualTypeOf<SmsCallback>();
    }
  });

  it('status codes of a callback switch on named constants', () => {
    const payload = {} as SmsCallback;
    const code = payload.status.code;
    if (isSmsStatusCode(code)) {
      const delivered = code === SMS_STATUS.DELIVERED;
      expectTypeOf(delivered).toEqualTypeOf<boolean>();
    }
  });

  it('every error extends XError and has a stable code', () => {
    expectTypeOf<WebhookError>().toExtend<XError>();
    expectTypeOf<CallbackVerificationError['code']>().toEqualTypeOf<'callback_rejected'>();
    expectTypeOf<CallbackVerificationError['reason']>().toEqualTypeOf<CallbackFailure>();
    expectTypeOf<BodyTooLargeError['code']>().toEqualTypeOf<'body_too_large'>();
    expectTypeOf<WebhookError['code']>().toEqualTypeOf<WebhookErrorCode>();
    const e = {} as unknown;
    if (e instanceof XError && e.code === 'body_used') expectTypeOf(e.message).toEqualTypeOf<string>();
  });
});

describe('entry points (the adapter core on @x/webhooks/adapter, test helpers on /testing)', () => {
  it('the main entry has neither; the subpaths have them', async () => {
    const main = await import('../src/index.js');
    const adapter = await import('../src/adapter-entry.js');
    const testing = await import('../src/testing.js');
    expectTypeOf(main).not.toHaveProperty('receiveCallback');
    expectTypeOf(main).not.toHaveProperty('receiveSignedRequest');
    expectTypeOf(main).not.toHaveProperty('settleWith');
    expectTypeOf(main).not.toHaveProperty('succeeded');
    expectTypeOf(main).not.toHaveProperty('signedRequestAnswer');
    expectTypeOf(main).not.toHaveProperty('readRequestBody');
    expectTypeOf(main).not.toHaveProperty('createSignedCallback');
    expectTypeOf(adapter.receiveCallback).returns.resolves.toEqualTypeOf<VerifiedCallback | undefined>();
    expectTypeOf(adapter.readRequestBody).returns.resolves.toEqualTypeOf<Uint8Array>();
    expectTypeOf(adapter.verificationFailure).returns.toEqualTypeOf<import('../src/adapter-entry.js').VerificationFailure | undefined>();
    // decideCallback: always a promise, with a replayStore or without.
    expectTypeOf(adapter.decideCallback).returns.toEqualTypeOf<Promise<VerifiedCallback | undefined>>();
    expectTypeOf(main).not.toHaveProperty('decideCallback');
    // withKeyCache: the options, now with a key cache.
    const options: CallbackOptions = { customerId: 'c', apiKey: 'k' };
    expectTypeOf(adapter.withKeyCache(options)).toEqualTypeOf<CallbackOptions & { keyCache: KeyCache }>();
    // One argument: the HMAC is the options' `mac`, else @x/auth's default (no adapter fallback).
    expectTypeOf(adapter.withKeyCache).parameters.toEqualTypeOf<[options: { mac?: MacProvider | undefined; keyCache?: KeyCache | undefined }]>();
    expectTypeOf(main).not.toHaveProperty('withKeyCache');
    expectTypeOf(adapter).toHaveProperty('receiveSignedRequest');
    expectTypeOf(adapter).toHaveProperty('settleWith');
    expectTypeOf(adapter).toHaveProperty('signedRequestAnswer');
    expectTypeOf(adapter).toHaveProperty('succeeded');
    expectTypeOf(testing.createSignedCallback).returns.toEqualTypeOf<{ body: string; headers: Record<string, string> }>();
    expectTypeOf(main).toHaveProperty('verifyCallback');
    expectTypeOf(main).toHaveProperty('handleCallback');
  });
});

describe('lost leases', () => {
  it('onLeaseLost gets a typed reason, and settleWith resolves once settled', async () => {
    const { settleWith } = await import('../src/adapter-entry.js');
    expectTypeOf<NonNullable<CallbackOptions['onLeaseLost']>>().parameter(0).toEqualTypeOf<LeaseLost>();
    expectTypeOf<LeaseLost['reason']>().toEqualTypeOf<'lease_lost'>();
    expectTypeOf(settleWith).returns.returns.toEqualTypeOf<Promise<void>>();
  });
});

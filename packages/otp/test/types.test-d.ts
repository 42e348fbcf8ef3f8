import type { Redis } from 'ioredis';
import { describe, expectTypeOf, it } from 'vitest';
import { createGuard, createMemoryStore, createOtp, type CheckResult, type GuardDecision, type GuardEvent, type GuardOptions, type GuardRequest, type OtpEvent, type OtpOptions, type OtpStore, type SendResult, type StartResult } from '../src/index.js';
import { createRedisStore, type RedisStoreOptions } from '../src/redis.js';
import { verifyApiSender, type VerifyApiSenderOptions } from '../src/verify-api.js';
import type { OtpSender } from '../src/index.js';

describe('@x/otp public types', () => {
  it('results narrow on status and allowed', () => {
    expectTypeOf<StartResult['status']>().toEqualTypeOf<'sent' | 'refused'>();
    expectTypeOf<SendResult['status']>().toEqualTypeOf<'sent' | 'expired' | 'refused'>();
    expectTypeOf<CheckResult['status']>().toEqualTypeOf<'valid' | 'invalid' | 'expired' | 'locked' | 'refused'>();
    const decision = {} as GuardDecision;
    if (!decision.allowed) expectTypeOf(decision.retryAfterMs).toEqualTypeOf<number>();
  });
  it('both stores are OtpStores, and an ioredis client is accepted as it is', () => {
    expectTypeOf(createMemoryStore()).toExtend<OtpStore>();
    expectTypeOf(createRedisStore).returns.toEqualTypeOf<OtpStore>();
    expectTypeOf<Redis>().toExtend<RedisStoreOptions['client']>();
  });
  it('the flow needs a client; the guard takes a store', () => {
    // @ts-expect-error: a flow without a client cannot send
    createOtp({});
    expectTypeOf(createGuard).parameter(0).toEqualTypeOf<GuardOptions | undefined>();
  });
  it('the Verify API sender is an OtpSender; its policy is the client\'s', () => {
    expectTypeOf(verifyApiSender).returns.toEqualTypeOf<OtpSender>();
    expectTypeOf(verifyApiSender).parameter(0).toEqualTypeOf<VerifyApiSenderOptions | undefined>();
    createOtp({ client: {} as Parameters<typeof createOtp>[0]['client'], sender: verifyApiSender({ policy: [{ method: 'sms', fallbackTime: 60 }, { method: 'viber' }] }) });
    // @ts-expect-error: not a method of the Verify API
    verifyApiSender({ policy: [{ method: 'call' }] });
    expectTypeOf<Awaited<ReturnType<OtpSender['check']>>>().toEqualTypeOf<'valid' | 'invalid' | 'expired'>();
  });
  it('a sent answer may be unconfirmed; a refusal carries the service\'s answer; events include the guard\'s', () => {
    expectTypeOf<Extract<StartResult, { status: 'sent' }>['unconfirmed']>().toEqualTypeOf<true | undefined>();
    expectTypeOf<Extract<StartResult, { status: 'refused' }>['httpStatus']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<Extract<OtpEvent, { type: 'pumping' }>>().toExtend<GuardEvent>();
    expectTypeOf<OtpOptions['secret']>().toEqualTypeOf<string | Uint8Array | undefined>();
    expectTypeOf<GuardRequest['trusted']>().toEqualTypeOf<boolean | undefined>();
    // @ts-expect-error: the detector's scopes are set apart
    createGuard({ pumping: { minStarts: 10 } });
    createGuard({ pumping: { prefix: { minStarts: 10, threshold: 0.8 }, country: false }, ipv6Prefix: 56, defaultCountry: 'GB', hashKeys: 'x'.repeat(32), storeTimeoutMs: 500 });
  });
  it('the risk gate asks Score, Intelligence or PhoneID', () => {
    expectTypeOf<NonNullable<Parameters<typeof createOtp>[0]['risk']>['source']>().toEqualTypeOf<'score' | 'intelligence' | 'phoneId'>();
  });
});

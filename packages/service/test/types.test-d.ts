import { describe, expectTypeOf, it } from 'vitest';
import { CODE_STATE, SMS_STATUS, isSmsStatusCode, type CodeState, type SmsStatusCode } from '../src/index.js';
import { VERIFY_FAILURES, VERIFY_FAILURE_CODES, VERIFY_FAILURE_REASONS, VERIFY_FAILURE_TEXTS, verifyFailureOf, type VerifyFailure, type VerifyFailureFacts } from '../src/failures-entry.js';
import {
  ACCOUNT_LIFECYCLE_EVENTS,
  MESSAGE_ENCODINGS,
  MESSAGE_TYPES,
  USE_CASE_CODES,
  analyzeMessage,
  type AccountLifecycleEvent,
  type MessageAnalysis,
  type MessageEncoding,
  type MessageType,
  type NonGsmCharacter,
  type UseCaseCode,
} from '../src/request.js';

describe('each union type is read from its constant', () => {
  it('value lists', () => {
    expectTypeOf<MessageType>().toEqualTypeOf<'OTP' | 'ARN' | 'MKT'>();
    expectTypeOf(MESSAGE_TYPES).toEqualTypeOf<readonly ['OTP', 'ARN', 'MKT']>();
    expectTypeOf<AccountLifecycleEvent>().toEqualTypeOf<(typeof ACCOUNT_LIFECYCLE_EVENTS)[number]>();
    expectTypeOf<AccountLifecycleEvent>().toEqualTypeOf<'create' | 'sign-in' | 'transact' | 'update' | 'delete'>();
    expectTypeOf<UseCaseCode>().toEqualTypeOf<(typeof USE_CASE_CODES)[number]>();
    expectTypeOf<'ATCK'>().toMatchTypeOf<UseCaseCode>();
    expectTypeOf<'NOPE'>().not.toMatchTypeOf<UseCaseCode>();
    expectTypeOf<MessageEncoding>().toEqualTypeOf<(typeof MESSAGE_ENCODINGS)[number]>();
    expectTypeOf<MessageEncoding>().toEqualTypeOf<'GSM-7' | 'UCS-2'>();
  });

  it('status codes and states', () => {
    expectTypeOf(SMS_STATUS.DELIVERED).toEqualTypeOf<200>();
    expectTypeOf<CodeState>().toEqualTypeOf<(typeof CODE_STATE)[keyof typeof CODE_STATE]>();
    const code: unknown = 200;
    if (isSmsStatusCode(code)) expectTypeOf(code).toEqualTypeOf<SmsStatusCode>();
  });

  it('the failure reasons are read from their list and key the failure table', () => {
    expectTypeOf<VerifyFailure>().toEqualTypeOf<(typeof VERIFY_FAILURE_REASONS)[number]>();
    expectTypeOf<VerifyFailure>().toEqualTypeOf<keyof typeof VERIFY_FAILURES>();
    expectTypeOf<'clock_skew'>().toMatchTypeOf<VerifyFailure>();
    expectTypeOf<'made_up'>().not.toMatchTypeOf<VerifyFailure>();
    expectTypeOf(VERIFY_FAILURES.clock_skew).toEqualTypeOf<VerifyFailureFacts>();
    expectTypeOf(verifyFailureOf).returns.toEqualTypeOf<VerifyFailure | undefined>();
    expectTypeOf(VERIFY_FAILURE_TEXTS.clock_skew).toEqualTypeOf<string>();
    expectTypeOf(VERIFY_FAILURE_CODES.clock_skew).not.toHaveProperty('text');
  });
});

describe('analyzeMessage', () => {
  it('answers a typed analysis', () => {
    expectTypeOf(analyzeMessage).parameters.toEqualTypeOf<[string]>();
    expectTypeOf(analyzeMessage('x')).toEqualTypeOf<MessageAnalysis>();
    expectTypeOf<MessageAnalysis['encoding']>().toEqualTypeOf<MessageEncoding>();
    expectTypeOf<MessageAnalysis['nonGsm']>().toEqualTypeOf<readonly NonGsmCharacter[]>();
    expectTypeOf<NonGsmCharacter>().toEqualTypeOf<{ readonly character: string; readonly index: number }>();
  });
});

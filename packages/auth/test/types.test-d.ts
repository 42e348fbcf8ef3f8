import { describe, expectTypeOf, it } from 'vitest';
import { createKeyCache, createMemoryReplayStore, enableSha1, type KeyCache, type PreparedMac, type VerifyOptions, prepareMac, signRequest, verifyRequest, type DeliveryBegin, type DeliveryState, type DeliveryStore, type MacProvider, type ReplayStore, type VerifyFailure, type VerifyResult } from '../src/index.js';
import { readClock, type Clock, type MemoryReplayStoreOptions } from '../src/index.js';
import { readBoundedBody, sha256Hex } from '../src/protocol.js';
import { nodeMac } from '../src/node/index.js';
import {
  AuthError,
  CODE_STATE,
  SMS_STATUS,
  VERIFY_FAILURES,
  VOICE_STATUS,
  XError,
  isCodeState,
  isSmsStatusCode,
  isVoiceStatusCode,
  verifyFailureOf,
  type AuthErrorCode,
  type CodeState,
  type SmsStatusCode,
  type VerifyFailureFacts,
  type VoiceStatusCode,
} from '../src/index.js';

describe('@x/auth public types', () => {
  it('signRequest returns lower-case headers and the string to sign', () => {
    expectTypeOf(signRequest).returns.toEqualTypeOf<{ headers: Record<string, string>; stringToSign: string }>();
  });
  it('verifyRequest resolves to ok or a typed reason with a 400/401 status', () => {
    expectTypeOf(verifyRequest).returns.resolves.toEqualTypeOf<VerifyResult>();
    const r = {} as VerifyResult;
    if (!r.ok) {
      expectTypeOf(r.reason).toEqualTypeOf<VerifyFailure>();
      expectTypeOf(r.status).toEqualTypeOf<400 | 401>();
    }
  });
  it('verifyRequest takes headers as Headers or a record, not a Map', () => {
    expectTypeOf(verifyRequest).parameter(0).toHaveProperty('headers').toEqualTypeOf<Headers | Readonly<Record<string, string | readonly string[] | undefined>>>();
    expectTypeOf({ method: 'GET', url: '/', headers: new Map([['authorization', 'TSA a:b']]) }).not.toMatchTypeOf<Parameters<typeof verifyRequest>[0]>();
  });
  it('readBoundedBody takes a byte stream and a limit, and resolves to the bytes or undefined past the limit', () => {
    expectTypeOf(readBoundedBody).parameters.toEqualTypeOf<[ReadableStream<Uint8Array>, number]>();
    expectTypeOf(readBoundedBody).returns.resolves.toEqualTypeOf<Uint8Array | undefined>();
  });
  it('a replay store may be sync or async; nodeMac is a MacProvider', () => {
    expectTypeOf<ReplayStore['claim']>().returns.toEqualTypeOf<boolean | Promise<boolean>>();
    expectTypeOf(nodeMac).toEqualTypeOf<MacProvider>();
  });
  it('a delivery store begins, completes and abandons, sync or async; the memory store is one', () => {
    expectTypeOf<DeliveryStore['begin']>().returns.toEqualTypeOf<DeliveryBegin | Promise<DeliveryBegin>>();
    expectTypeOf<DeliveryStore['complete']>().parameters.toEqualTypeOf<[key: string, token: string, ttlMs: number, value?: string]>();
    expectTypeOf<DeliveryStore['abandon']>().returns.toEqualTypeOf<boolean | Promise<boolean>>();
    expectTypeOf(createMemoryReplayStore()).toExtend<DeliveryStore & ReplayStore>();
    const begun = {} as DeliveryBegin;
    if (begun.state === 'started') expectTypeOf(begun.token).toEqualTypeOf<string>();
    if (begun.state === 'done') expectTypeOf(begun.value).toEqualTypeOf<string | undefined>(); // what complete() recorded
    expectTypeOf(sha256Hex).returns.toEqualTypeOf<string>();
  });
  it('two-phase sends: sending, inspect and release are optional on the contract, present on the memory store', () => {
    const callbacksOnly: DeliveryStore = { begin: () => ({ state: 'in_progress' }), complete: () => true, abandon: () => true };
    expectTypeOf(callbacksOnly.sending).toEqualTypeOf<DeliveryStore['sending']>();
    expectTypeOf(createMemoryReplayStore().sending).parameters.toEqualTypeOf<[key: string, token: string, leaseMs: number, ttlMs: number]>();
    expectTypeOf(createMemoryReplayStore().inspect('k')).toEqualTypeOf<DeliveryState | undefined>();
    expectTypeOf(createMemoryReplayStore().release('k')).toEqualTypeOf<boolean>();
    expectTypeOf<DeliveryState['state']>().toEqualTypeOf<'reserved' | 'sending' | 'stalled' | 'done'>();
    const begun = {} as DeliveryBegin;
    if (begun.state === 'in_progress') expectTypeOf(begun.phase).toEqualTypeOf<'sending' | 'stalled' | undefined>();
  });
  it('enableSha1 takes nothing and returns nothing; prepareMac is a MacProvider; a signer that cannot load SHA-1 says so by code', () => {
    expectTypeOf(enableSha1).toEqualTypeOf<() => void>();
    expectTypeOf(prepareMac).toEqualTypeOf<MacProvider>();
    expectTypeOf<'algorithm_not_enabled'>().toExtend<AuthErrorCode>();
  });
  it('createKeyCache takes an optional mac and limit and gives a KeyCache, passed as keyCache to verifyRequest', () => {
    expectTypeOf(createKeyCache()).toEqualTypeOf<KeyCache>();
    expectTypeOf(createKeyCache({ mac: nodeMac, limit: 8 })).toEqualTypeOf<KeyCache>();
    expectTypeOf(createKeyCache({ mac: undefined, limit: undefined })).toEqualTypeOf<KeyCache>();
    expectTypeOf<KeyCache['mac']>().parameters.toEqualTypeOf<[algorithm: 'HMAC-SHA256' | 'HMAC-SHA1', apiKey: string]>();
    expectTypeOf<KeyCache['mac']>().returns.toEqualTypeOf<PreparedMac>();
    expectTypeOf<VerifyOptions['keyCache']>().toEqualTypeOf<KeyCache | undefined>();
    // @ts-expect-error the limit is a number
    createKeyCache({ limit: '8' });
  });
});

// "Types that narrow": named codes usable in an exhaustive switch; one error base.

describe('named status codes and states', () => {
  it('the constants are literal types, and a switch over a guarded code can be exhaustive', () => {
    expectTypeOf(SMS_STATUS.DELIVERED).toEqualTypeOf<200>();
    expectTypeOf(VOICE_STATUS.ANSWERED).toEqualTypeOf<100>();
    expectTypeOf(CODE_STATE.VALID).toEqualTypeOf<'VALID'>();
    expectTypeOf<CodeState>().toEqualTypeOf<'VALID' | 'INVALID' | 'EXPIRED' | 'MAX_ATTEMPTS_EXCEEDED' | 'UNKNOWN'>();
    const code = 0 as number;
    if (isSmsStatusCode(code)) {
      expectTypeOf(code).toEqualTypeOf<SmsStatusCode>();
      const final = (c: SmsStatusCode): boolean => {
        switch (c) {
          case SMS_STATUS.IN_PROGRESS:
          case SMS_STATUS.QUEUED:
          case SMS_STATUS.QUEUED_BY_GATEWAY:
          case SMS_STATUS.STATUS_DELAYED:
          case SMS_STATUS.DELIVERED_TO_GATEWAY:
          case SMS_STATUS.BULK_ACCEPTED:
            return false;
          default:
            return true;
        }
      };
      expectTypeOf(final(code)).toEqualTypeOf<boolean>();
    }
    if (isVoiceStatusCode(code)) expectTypeOf(code).toEqualTypeOf<VoiceStatusCode>();
    const state = '' as string;
    if (isCodeState(state)) {
      const label = (s: CodeState): string => {
        switch (s) {
          case CODE_STATE.VALID:
            return 'ok';
          case CODE_STATE.INVALID:
          case CODE_STATE.EXPIRED:
          case CODE_STATE.MAX_ATTEMPTS_EXCEEDED:
          case CODE_STATE.UNKNOWN:
            return 'no';
          default:
            return s satisfies never;
        }
      };
      expectTypeOf(label(state)).toEqualTypeOf<string>();
    }
    // @ts-expect-error: not a named SMS status
    void SMS_STATUS.DELIVERED_TO_MARS;
  });

  it('the verification failures: a switch over the reason is exhaustive, codes map back to a reason', () => {
    expectTypeOf(verifyFailureOf).returns.toEqualTypeOf<VerifyFailure | undefined>();
    expectTypeOf(VERIFY_FAILURES).toEqualTypeOf<Readonly<Record<VerifyFailure, VerifyFailureFacts>>>();
    const reason = verifyFailureOf(10004);
    if (reason) {
      const kind = (r: VerifyFailure): 'clock' | 'key' | 'request' => {
        switch (r) {
          case 'clock_skew':
            return 'clock';
          case 'unknown_customer':
          case 'invalid_api_key':
          case 'signature_mismatch':
            return 'key';
          case 'missing_authorization':
          case 'malformed_authorization':
          case 'unsupported_auth_method':
          case 'missing_date':
          case 'invalid_date':
          case 'invalid_nonce':
          case 'missing_nonce':
          case 'nonce_reused':
          case 'basic_not_allowed':
          case 'digest_not_allowed':
            return 'request';
          default:
            return r satisfies never;
        }
      };
      expectTypeOf(kind(reason)).toEqualTypeOf<'clock' | 'key' | 'request'>();
    }
  });

  it('AuthError extends XError and narrows on code', () => {
    expectTypeOf<AuthError>().toExtend<XError>();
    expectTypeOf<AuthError['code']>().toEqualTypeOf<AuthErrorCode>();
    expectTypeOf<XError['code']>().toEqualTypeOf<string>();
    const e = {} as unknown;
    if (e instanceof AuthError) expectTypeOf(e.code).toEqualTypeOf<AuthErrorCode>();
  });
});

describe('entry points (a small main entry, the plumbing on @x/auth/protocol)', () => {
  it('the main entry has no protocol plumbing; @x/auth/protocol has it', async () => {
    const main = await import('../src/index.js');
    const protocol = await import('../src/protocol.js');
    expectTypeOf(main).not.toHaveProperty('stringToSign');
    expectTypeOf(protocol).toHaveProperty('stringToSign');
    expectTypeOf(main).not.toHaveProperty('stringToSignParts');
    expectTypeOf(protocol).toHaveProperty('stringToSignParts');
    expectTypeOf(main).not.toHaveProperty('joinStringToSign');
    expectTypeOf(protocol).toHaveProperty('joinStringToSign');
    expectTypeOf(main).not.toHaveProperty('canonicalTsHeaders');
    expectTypeOf(protocol).toHaveProperty('canonicalTsHeaders');
    expectTypeOf(main).not.toHaveProperty('canonicalHeaderValue');
    expectTypeOf(protocol).toHaveProperty('canonicalHeaderValue');
    expectTypeOf(main).not.toHaveProperty('resourceOf');
    expectTypeOf(protocol).toHaveProperty('resourceOf');
    expectTypeOf(main).not.toHaveProperty('formatHttpDate');
    expectTypeOf(protocol).toHaveProperty('formatHttpDate');
    expectTypeOf(main).not.toHaveProperty('parseHttpDate');
    expectTypeOf(protocol).toHaveProperty('parseHttpDate');
    expectTypeOf(main).not.toHaveProperty('encodeBase64');
    expectTypeOf(protocol).toHaveProperty('encodeBase64');
    expectTypeOf(main).not.toHaveProperty('decodeBase64');
    expectTypeOf(protocol).toHaveProperty('decodeBase64');
    expectTypeOf(main).not.toHaveProperty('timingSafeEqual');
    expectTypeOf(protocol).toHaveProperty('timingSafeEqual');
    expectTypeOf(protocol.timingSafeEqual).parameters.toEqualTypeOf<[a: string, b: string]>();
    expectTypeOf(main).not.toHaveProperty('sha256Hex');
    expectTypeOf(protocol).toHaveProperty('sha256Hex');
    expectTypeOf(main).not.toHaveProperty('headerMap');
    expectTypeOf(protocol).toHaveProperty('headerMap');
    expectTypeOf(main).not.toHaveProperty('headerValue');
    expectTypeOf(protocol).toHaveProperty('headerValue');
    expectTypeOf(main).not.toHaveProperty('decodeCredentials');
    expectTypeOf(protocol).toHaveProperty('decodeCredentials');
    expectTypeOf(protocol).not.toHaveProperty('SERVICE_AUTH_CODES'); // one name: VERIFY_FAILURE_CODES
    expectTypeOf(main).not.toHaveProperty('HEADER');
    expectTypeOf(protocol).toHaveProperty('HEADER');
    expectTypeOf(main).not.toHaveProperty('CONTENT_TYPE');
    expectTypeOf(protocol).toHaveProperty('CONTENT_TYPE');
    expectTypeOf(main).not.toHaveProperty('CLOCK_SKEW_MS');
    expectTypeOf(protocol).toHaveProperty('CLOCK_SKEW_MS');
    expectTypeOf(main).not.toHaveProperty('NONCE_WINDOW_MS');
    expectTypeOf(protocol).toHaveProperty('NONCE_WINDOW_MS');
    expectTypeOf(main).not.toHaveProperty('NONCE_MIN_LENGTH');
    expectTypeOf(protocol).toHaveProperty('NONCE_MIN_LENGTH');
    expectTypeOf(main).not.toHaveProperty('NONCE_MAX_LENGTH');
    expectTypeOf(protocol).toHaveProperty('NONCE_MAX_LENGTH');
    expectTypeOf(main).not.toHaveProperty('DEFAULT_ALGORITHM');
    expectTypeOf(protocol).toHaveProperty('DEFAULT_ALGORITHM');
    expectTypeOf(protocol.stringToSign).returns.toHaveProperty('text');
    expectTypeOf(protocol.HEADER.tsDate).toEqualTypeOf<'x-ts-date'>();
    expectTypeOf(main).toHaveProperty('signRequest');
    expectTypeOf(main).toHaveProperty('verifyRequest');
    expectTypeOf(main).toHaveProperty('callbackHeaders');
  });

  it('createMemoryReplayStore rejects bad options with the AuthError code invalid_option', () => {
    expectTypeOf<'invalid_option'>().toExtend<AuthErrorCode>();
  });
});

// One clock type for every `now` option of the SDK.
describe('every now option takes a Clock: () => Date | number', () => {
  it('VerifyOptions and MemoryReplayStoreOptions', () => {
    expectTypeOf<Clock>().toEqualTypeOf<() => Date | number>();
    expectTypeOf<NonNullable<VerifyOptions['now']>>().toEqualTypeOf<Clock>();
    expectTypeOf<NonNullable<MemoryReplayStoreOptions['now']>>().toEqualTypeOf<Clock>();
    expectTypeOf(readClock).parameters.toEqualTypeOf<[Clock | undefined]>();
    expectTypeOf(readClock).returns.toEqualTypeOf<number>();
    createMemoryReplayStore({ now: () => new Date() });
    createMemoryReplayStore({ now: Date.now });
    // @ts-expect-error: a clock gives a Date or epoch milliseconds, not a string
    createMemoryReplayStore({ now: () => '2024-01-02' });
  });
});

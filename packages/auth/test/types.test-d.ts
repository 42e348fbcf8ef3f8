import { describe, expectTypeOf, it } from 'vitest';
import { createMemoryReplayStore, enableSha1, prepareMac, sha256Hex, signRequest, verifyRequest, type AuthErrorCode, type DeliveryBegin, type DeliveryStore, type MacProvider, type ReplayStore, type VerifyFailure, type VerifyResult } from '../src/index.js';
import { nodeMac } from '../src/node/index.js';

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
  it('a replay store may be sync or async; nodeMac is a MacProvider', () => {
    expectTypeOf<ReplayStore['claim']>().returns.toEqualTypeOf<boolean | Promise<boolean>>();
    expectTypeOf(nodeMac).toEqualTypeOf<MacProvider>();
  });
  it('a delivery store begins, completes and abandons, sync or async; the memory store is one', () => {
    expectTypeOf<DeliveryStore['begin']>().returns.toEqualTypeOf<DeliveryBegin | Promise<DeliveryBegin>>();
    expectTypeOf<DeliveryStore['complete']>().parameters.toEqualTypeOf<[key: string, token: string, ttlMs: number]>();
    expectTypeOf<DeliveryStore['abandon']>().returns.toEqualTypeOf<boolean | Promise<boolean>>();
    expectTypeOf(createMemoryReplayStore()).toExtend<DeliveryStore & ReplayStore>();
    const begun = {} as DeliveryBegin;
    if (begun.state === 'started') expectTypeOf(begun.token).toEqualTypeOf<string>();
    expectTypeOf(sha256Hex).returns.toEqualTypeOf<string>();
  });
  it('enableSha1 takes nothing and returns nothing; prepareMac is a MacProvider; a signer that cannot load SHA-1 says so by code', () => {
    expectTypeOf(enableSha1).toEqualTypeOf<() => void>();
    expectTypeOf(prepareMac).toEqualTypeOf<MacProvider>();
    expectTypeOf<'algorithm_not_enabled'>().toExtend<AuthErrorCode>();
  });
});

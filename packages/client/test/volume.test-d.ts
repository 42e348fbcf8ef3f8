import { describe, expectTypeOf, it } from 'vitest';
import { createClient, type ApiResponse, type SmsResponse } from '../src/index.js';
import { createIdempotency } from '../src/idempotency.js';
import {
  createMemoryRateLimitStore,
  createMemorySpendStore,
  createSpendCap,
  sendMany,
  SpendCapError,
  type RateLimitStore,
  type RefusedReason,
  type SendManyEvent,
  type SendManyItem,
  type SendManyResult,
  type SpendCap,
  type SpendResult,
  type SpendStore,
} from '../src/volume.js';

describe('@x/client/volume types', () => {
  const idempotency = createIdempotency();
  const client = createClient({ customerId: 'C', apiKey: 'K', idempotency });
  const items: SendManyItem[] = [{ id: 'u1', params: { phoneNumber: '15555550100', message: 'Hi', messageType: 'ARN' } }];

  it('sendMany takes an iterable or async iterable and yields results that narrow on status', async () => {
    async function* later() {
      yield* items;
    }
    expectTypeOf(sendMany(client, items, { runId: 'r' })).toEqualTypeOf<AsyncGenerator<SendManyResult, void, undefined>>();
    for await (const result of sendMany(client, later(), { runId: 'r', concurrency: 4, rate: { perSecond: 10 }, onEvent: (e: SendManyEvent) => void e })) {
      if (result.status === 'sent') expectTypeOf(result.response).toEqualTypeOf<ApiResponse<SmsResponse>>();
      if (result.status === 'refused') expectTypeOf(result.reason).toEqualTypeOf<RefusedReason>();
      if (result.status === 'unknown') expectTypeOf(result.referenceId).toEqualTypeOf<string | undefined>();
    }
    // @ts-expect-error a run needs its id
    void sendMany(client, items, {});
    // @ts-expect-error the rate is sends a second
    void sendMany(client, items, { runId: 'r', rate: { perMinute: 10 } });
  });

  it('the store contracts have the shapes @x/redis implements', () => {
    expectTypeOf(createMemoryRateLimitStore()).toEqualTypeOf<RateLimitStore>();
    expectTypeOf<RateLimitStore['acquire']>().toEqualTypeOf<(key: string, rate: { perSecond: number; burst: number }) => Promise<number>>();
    expectTypeOf<RateLimitStore['pause']>().toEqualTypeOf<(key: string, untilMs: number) => Promise<void>>();
    expectTypeOf(createMemorySpendStore()).toEqualTypeOf<SpendStore>();
    expectTypeOf<ReturnType<SpendStore['spend']>>().toEqualTypeOf<Promise<SpendResult>>();
    expectTypeOf<SpendResult>().toEqualTypeOf<{ ok: true; used: number } | { ok: false; used: number; resetInMs: number }>();
  });

  it('a spend cap takes budgets per account, country or a key of the send, and names them in its error', () => {
    const cap = createSpendCap({ countryOf: () => 'GB', budgets: [{ name: 'a', max: 1, periodMs: 1 }, { name: 'c', max: 1, periodMs: 1, per: 'country', except: ['US'] }, { name: 't', max: 1, periodMs: 1, per: (s) => s.tags.team }] });
    expectTypeOf(cap).toEqualTypeOf<SpendCap>();
    expectTypeOf(cap.charge).returns.toEqualTypeOf<Promise<{ parts: number }>>();
    expectTypeOf<SpendCapError['code']>().toEqualTypeOf<'spend_cap_exceeded'>();
    expectTypeOf<SpendCapError['budget']>().toEqualTypeOf<string>();
    // @ts-expect-error per is 'account', 'country' or a function
    createSpendCap({ budgets: [{ name: 'x', max: 1, periodMs: 1, per: 'team' }] });
  });
});

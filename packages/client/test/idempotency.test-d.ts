import { createMemoryReplayStore, type DeliveryStore } from '@x/auth';
import { describe, expectTypeOf, it } from 'vitest';
import { createClient, isClientError, type ApiResponse, type IdempotencyHook, type SendOptions, type SmsResponse } from '../src/index.js';
import { IdempotencyError, createIdempotency, type Idempotency, type IdempotencyErrorCode, type IdempotencyKeyState, type IdempotencyOptions, type IdempotencyScope } from '../src/idempotency.js';

describe('idempotencyKey types', () => {
  const client = createClient({ customerId: 'C', apiKey: 'K', idempotency: createIdempotency() });

  it('sends take an idempotencyKey; reads and checks do not', () => {
    expectTypeOf(client.messaging.send).parameter(1).toEqualTypeOf<SendOptions | undefined>();
    expectTypeOf(client.messaging.bulk).parameter(1).toEqualTypeOf<SendOptions | undefined>();
    expectTypeOf(client.voice.call).parameter(1).toEqualTypeOf<SendOptions | undefined>();
    expectTypeOf(client.verify.sms).parameter(1).toEqualTypeOf<SendOptions | undefined>();
    expectTypeOf(client.verify.call).parameter(1).toEqualTypeOf<SendOptions | undefined>();
    expectTypeOf(client.verifyApi.create).parameter(1).toEqualTypeOf<SendOptions | undefined>();
    expectTypeOf<SendOptions['idempotencyKey']>().toEqualTypeOf<string | undefined>();
    // @ts-expect-error a status read is idempotent: no key
    void client.messaging.status('REF', { idempotencyKey: 'k' });
    // @ts-expect-error a code check is not a send: no key
    void client.verify.check('REF', '1234', { idempotencyKey: 'k' });
  });

  it('createIdempotency takes a delivery store and gives the client option', () => {
    expectTypeOf(createIdempotency).returns.toEqualTypeOf<Idempotency>();
    expectTypeOf<Idempotency>().toExtend<IdempotencyHook>();
    expectTypeOf<IdempotencyOptions['store']>().toEqualTypeOf<DeliveryStore | undefined>();
    expectTypeOf(createIdempotency({ store: createMemoryReplayStore(), ttlMs: 3_600_000, waitMs: 0, leaseMs: 5_000 })).toEqualTypeOf<Idempotency>();
    expectTypeOf<ReturnType<IdempotencyHook['run']>>().toEqualTypeOf<Promise<ApiResponse<unknown>>>();
    // @ts-expect-error ttlMs is a number of milliseconds
    createIdempotency({ ttlMs: '1d' });
    expectTypeOf<Awaited<ReturnType<typeof client.messaging.send>>>().toEqualTypeOf<ApiResponse<SmsResponse>>();
  });

  it('inspect and release take the key and its scope; release only with confirmNotSent: true', () => {
    const idempotency = createIdempotency();
    const scope = { customerId: 'C', operation: 'POST /v1/messaging' };
    expectTypeOf(idempotency.inspect('k', scope)).toEqualTypeOf<Promise<IdempotencyKeyState | undefined>>();
    expectTypeOf<IdempotencyKeyState['state']>().toEqualTypeOf<'reserved' | 'sending' | 'stalled' | 'answered' | 'unknown'>();
    expectTypeOf(idempotency.release('k', { ...scope, confirmNotSent: true })).toEqualTypeOf<Promise<boolean>>();
    // @ts-expect-error release needs the confirmation
    void idempotency.release('k', scope);
    // @ts-expect-error inspect needs the scope (account and operation)
    void idempotency.inspect('k');
    expectTypeOf<IdempotencyScope>().toEqualTypeOf<{ customerId: string; operation: string }>();
  });

  it('IdempotencyError narrows on its code, as an instance or through isClientError', () => {
    const e = {} as unknown;
    if (e instanceof IdempotencyError) {
      expectTypeOf(e.code).toEqualTypeOf<IdempotencyErrorCode>();
      expectTypeOf(e.sent).toEqualTypeOf<false | 'unknown'>();
      expectTypeOf(e.referenceId).toEqualTypeOf<string | undefined>();
    }
    if (isClientError(e) && (e.code === 'idempotency_unknown' || e.code === 'idempotency_mismatch')) {
      expectTypeOf(e.key).toEqualTypeOf<string>();
      expectTypeOf(e.operation).toEqualTypeOf<string>();
      expectTypeOf(e.referenceId).toEqualTypeOf<string | undefined>();
    }
  });
});

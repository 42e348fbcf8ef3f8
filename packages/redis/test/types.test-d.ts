import type { DeliveryStore, ReplayStore } from '@x/auth';
import type { Redis } from 'ioredis';
import { createIdempotency, type IdempotencyOptions } from '@x/client/idempotency';
import { describe, expectTypeOf, it } from 'vitest';
import { createRedisReplayStore, type RedisCommands } from '../src/index.js';

describe('@x/redis public types', () => {
  it('the store serves nonces and callback deliveries', () => {
    expectTypeOf(createRedisReplayStore).returns.toEqualTypeOf<ReplayStore & Required<DeliveryStore>>();
  });
  it('the store keeps idempotency keys for @x/client (its done state carries the stored answer)', () => {
    expectTypeOf(createRedisReplayStore({ client: {} as Redis })).toExtend<NonNullable<IdempotencyOptions['store']>>();
    createIdempotency({ store: createRedisReplayStore({ client: {} as Redis, prefix: 'myapp:idem:' }) });
  });
  it('an ioredis client is accepted as it is', () => {
    expectTypeOf<Redis>().toExtend<RedisCommands>();
    // @ts-expect-error: a client without eval cannot run the delivery scripts
    createRedisReplayStore({ client: { set: async () => 'OK' } });
  });
});

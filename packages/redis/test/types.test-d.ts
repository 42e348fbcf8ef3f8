import type { DeliveryStore, ReplayStore } from '@x/auth';
import type { Redis, Cluster } from 'ioredis';
import type { Cluster as ValkeyCluster, Redis as Valkey } from 'iovalkey';
import type { GlideClient, GlideClusterClient } from '@valkey/valkey-glide';
import { createClient, createCluster } from 'redis';
import { createIdempotency, type IdempotencyOptions } from '@x/client/idempotency';
import type { RateLimitStore, SpendStore } from '@x/client/volume';
import { describe, expectTypeOf, it } from 'vitest';
import { createRedisRateLimitStore, createRedisReplayStore, createRedisSpendStore, createRedisStateStore, type RedisClient } from '../src/index.js';
import { deliveryStoreChecks, type StoreCheck } from '../src/testing.js';

describe('@x/redis public types', () => {
  it('the store serves nonces and callback deliveries', () => {
    expectTypeOf(createRedisReplayStore).returns.toEqualTypeOf<ReplayStore & Required<DeliveryStore>>();
  });
  it('the store keeps idempotency keys for @x/client (its done state carries the stored answer)', () => {
    expectTypeOf(createRedisReplayStore({ client: {} as Redis })).toExtend<NonNullable<IdempotencyOptions['store']>>();
    createIdempotency({ store: createRedisReplayStore({ client: {} as Redis, prefix: 'myapp:idem:' }) });
  });
  it('every supported client is accepted as it is, single or Cluster', () => {
    expectTypeOf<Redis>().toExtend<RedisClient>();
    expectTypeOf<Cluster>().toExtend<RedisClient>();
    expectTypeOf<Valkey>().toExtend<RedisClient>();
    expectTypeOf<ValkeyCluster>().toExtend<RedisClient>();
    expectTypeOf<GlideClient>().toExtend<RedisClient>();
    expectTypeOf<GlideClusterClient>().toExtend<RedisClient>();
    createRedisStateStore({ client: createClient() });
    createRedisStateStore({ client: createCluster({ rootNodes: [] }) });
    // @ts-expect-error: a client without eval cannot run the scripts
    createRedisReplayStore({ client: { set: async () => 'OK' } });
  });
  it('the volume stores are the contracts of @x/client/volume', () => {
    expectTypeOf(createRedisRateLimitStore({ client: {} as Redis })).toExtend<RateLimitStore>();
    expectTypeOf(createRedisSpendStore({ client: {} as Redis })).toExtend<SpendStore>();
  });
  it('the conformance checks take a store factory', () => {
    expectTypeOf(deliveryStoreChecks[0]!).toExtend<StoreCheck<Required<DeliveryStore>>>();
  });
});

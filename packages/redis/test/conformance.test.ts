// The exported conformance suite (@x/redis/testing) run on every supported client, against the
// suite's real redis-server and a real three-master Cluster; and on the memory stores of @x/auth,
// @x/webhooks/router and @x/client/volume, which hold the same contracts in one process.
import { createMemoryReplayStore } from '@x/auth';
import { createMemoryStateStore } from '@x/webhooks/router';
import { afterAll, beforeAll, describe, inject, it } from 'vitest';
import { startRedisCluster, type RedisCluster } from '../../../testing/redis-cluster.js';
import { createMemoryRateLimitStore, createMemorySpendStore } from '@x/client/volume';
import { createRedisRateLimitStore, createRedisReplayStore, createRedisSpendStore, createRedisStateStore } from '../src/index.js';
import { deliveryStoreChecks, rateLimitStoreChecks, replayStoreChecks, spendStoreChecks, stateStoreChecks } from '../src/testing.js';
import { connectors, type Connected } from './support/clients.js';

const port = inject('redisPort');
let cluster: RedisCluster;
const open: Connected[] = [];
beforeAll(async () => {
  cluster = await startRedisCluster(3);
}, 30_000);
afterAll(async () => {
  await Promise.all(open.map((c) => c.close().catch(() => {})));
  await cluster?.stop();
});

for (const connector of connectors) {
  for (const topology of ['redis-server', 'three-master Cluster'] as const) {
    // Concurrent: each check uses keys of its own, and most of their time is spent waiting for a ttl.
    describe.concurrent(`${connector.name} on a ${topology}`, () => {
      let client: object;
      beforeAll(async () => {
        const connected = topology === 'redis-server' ? await connector.single(port) : await connector.cluster(cluster.ports);
        open.push(connected);
        client = connected.client;
      }, 30_000);
      const prefix = `conf:${connector.name}:`;
      for (const check of replayStoreChecks) it(`replay: ${check.name}`, () => check.run(() => createRedisReplayStore({ client: client as never, prefix })));
      for (const check of deliveryStoreChecks) it(`delivery: ${check.name}`, () => check.run(() => createRedisReplayStore({ client: client as never, prefix })));
      for (const check of stateStoreChecks) it(`state: ${check.name}`, () => check.run(() => createRedisStateStore({ client: client as never, prefix })));
      for (const check of rateLimitStoreChecks) it(`rate: ${check.name}`, () => check.run(() => createRedisRateLimitStore({ client: client as never, prefix })));
      for (const check of spendStoreChecks) it(`spend: ${check.name}`, () => check.run(() => createRedisSpendStore({ client: client as never, prefix })));
    });
  }
}

describe.concurrent('the memory stores hold the same contracts', () => {
  const replay = createMemoryReplayStore();
  for (const check of [...replayStoreChecks, ...deliveryStoreChecks]) it(check.name, () => check.run(() => replay as never));
  const state = createMemoryStateStore();
  for (const check of stateStoreChecks) it(`state: ${check.name}`, () => check.run(() => state));
  const rate = createMemoryRateLimitStore();
  for (const check of rateLimitStoreChecks) it(`rate: ${check.name}`, () => check.run(() => rate));
  const spend = createMemorySpendStore();
  for (const check of spendStoreChecks) it(`spend: ${check.name}`, () => check.run(() => spend));
});

describe('the checks judge the store, not the speed of the machine', () => {
  // Each call answers 40 ms late, as on a loaded machine or a distant Redis: a correct store
  // still passes every timing-based check.
  const late = <T extends object>(store: T): T =>
    new Proxy(store, { get: (target, name) => (typeof (target as never)[name] === 'function' ? async (...args: unknown[]) => { await new Promise((r) => setTimeout(r, 40)); return (target as never as Record<string | symbol, (...a: unknown[]) => unknown>)[name]!(...args); } : (target as never)[name]) });
  const rate = late(createMemoryRateLimitStore());
  for (const check of rateLimitStoreChecks) it(`rate: ${check.name}`, () => check.run(() => rate));
  const delivery = late(createMemoryReplayStore());
  for (const check of deliveryStoreChecks) it(`delivery: ${check.name}`, () => check.run(() => delivery as never));
});

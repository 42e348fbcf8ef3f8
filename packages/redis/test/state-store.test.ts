// The router's state store against a real redis-server: compare-and-set in one script, and the
// delivery-state rule across two connections (two processes) in any order.
import { createRouter } from '@x/webhooks/router';
import type { CallbackPayload } from '@x/webhooks';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createRedisStateStore } from '../src/index.js';

const connections = [0, 1].map(() => new Redis({ port: inject('redisPort'), host: '127.0.0.1' }));
afterAll(() => Promise.all(connections.map((c) => c.quit())));
const unique = () => `s-${Math.random().toString(36).slice(2)}`;
const sms = (reference_id: string, code: number, updated_on: string): CallbackPayload => ({ reference_id, sub_resource: 'sms', errors: [], status: { code, description: '', updated_on } });

describe('createRedisStateStore against a real redis-server', () => {
  it('compareAndSet writes only over the expected value (or none), with the ttl', async () => {
    const store = createRedisStateStore({ client: connections[0]!, prefix: 'cas:' });
    const key = unique();
    expect(await store.compareAndSet(key, 'a', 'b', 60_000)).toBe(false);
    expect(await store.compareAndSet(key, null, 'a', 60_000)).toBe(true);
    expect(await store.compareAndSet(key, null, 'x', 60_000)).toBe(false);
    expect(await store.compareAndSet(key, 'a', 'b', 60_000)).toBe(true);
    expect(await store.get(key)).toBe('b');
    expect(await connections[0]!.pttl(`cas:${key}`)).toBeGreaterThan(50_000);
  });

  it('of concurrent writers over the same value, exactly one wins', async () => {
    const [a, b] = connections.map((client) => createRedisStateStore({ client }));
    const key = unique();
    await a!.compareAndSet(key, null, 'v0', 60_000);
    const wins = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a! : b!).compareAndSet(key, 'v0', `v${i + 1}`, 60_000)));
    expect(wins.filter(Boolean)).toHaveLength(1);
  });

  it('two routers sharing it: 290 -> 203 -> 200 delivered out of order, concurrently, twice: 200 is the state and a late 290 is stale', async () => {
    const ref = unique();
    const delivered: string[] = [];
    const routers = connections.map((client) => createRouter({ store: createRedisStateStore({ client }) }).on('sms.delivered', (p) => void delivered.push(p.status.updated_on)));
    const sequence = [sms(ref, 290, '2026-01-01T00:00:01Z'), sms(ref, 203, 'Thu, 01 Jan 2026 00:00:02 GMT'), sms(ref, 200, '2026-01-01T00:00:05Z')];
    const arrivals = [sequence[2]!, sequence[0]!, sequence[2]!, sequence[1]!];
    await Promise.all(arrivals.map((p, i) => routers[i % 2]!.handle(p)));
    const late = await routers[0]!.handle(sequence[0]!);
    expect(late).toMatchObject({ routed: false, reason: 'stale', state: { code: 200 } });
    expect(JSON.parse((await connections[0]!.get(`x:state:state:${ref}`))!)).toMatchObject({ code: 200, final: true });
    expect(delivered.length).toBeGreaterThanOrEqual(1);
  });
});

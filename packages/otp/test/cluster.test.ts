// On a real three-master Redis Cluster with the default prefix (no hash tag of the user's), on every
// client @x/redis supports: the flow and the guard with every scope set (number, IP, account,
// range, country, budget), two clients sharing flows, the limits holding across them; the keys of
// one decision spread over several slots and masters; pumping trips a range shared by numbers.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisCluster, type RedisCluster } from '../../../testing/redis-cluster.js';
import { connectors, type Connected } from '../../redis/test/support/clients.js';
import { createGuard, createOtp } from '../src/index.js';
import { createRedisStore } from '../src/redis.js';
import { emulated, wrong } from './support.js';

const SECRET = 'a secret of the tests, 32 characters or more';
let cluster: RedisCluster;
const open: Connected[] = [];
beforeAll(async () => {
  cluster = await startRedisCluster(3);
}, 30_000);
afterAll(async () => {
  await Promise.all(open.map((c) => c.close().catch(() => {})));
  await cluster?.stop();
});

/** Every key on each master, through a plain connection to it. */
async function keysPerMaster(pattern: string) {
  return Promise.all(
    cluster.ports.map(async (port) => {
      const node = new Redis({ port, host: '127.0.0.1' });
      try {
        return { port, keys: await node.keys(pattern), slotOf: (key: string) => node.cluster('KEYSLOT', key) as Promise<number> };
      } finally {
        setTimeout(() => node.disconnect(), 1000);
      }
    }),
  );
}

describe.each(connectors)('@x/otp on a three-master Redis Cluster through $name, default prefix', (connector) => {
  const connect = async () => {
    const connected = await connector.cluster(cluster.ports);
    open.push(connected);
    return connected.client as never;
  };
  const prefix = `otp-${connector.name.replace(/\W/g, '')}:`;
  const guard = {
    budget: { maxPerMinute: 1_000 },
    limits: { phone: { max: 3, windowMs: 600_000 }, ip: { max: 50, windowMs: 600_000 }, account: { max: 50, windowMs: 600_000 }, prefix: { max: 50, windowMs: 600_000 }, country: { max: 500, windowMs: 600_000 } },
    pumping: { prefix: { minStarts: 1_000 }, country: { minStarts: 1_000 } },
  };

  it('start, resend and check through two cluster clients; the number limit holds across them; the keys spread over masters', async () => {
    const { client, sent } = emulated();
    const one = createOtp({ client, store: createRedisStore({ client: await connect(), prefix }), secret: SECRET, resendCooldownMs: 0, guard });
    const two = createOtp({ client, store: createRedisStore({ client: await connect(), prefix }), secret: SECRET, resendCooldownMs: 0, guard });
    const started = await one.start({ phoneNumber: '+44 7700 900123', ip: '2001:db8::1', account: 'acct-{1}' });
    if (started.status !== 'sent') throw new Error(`not sent: ${JSON.stringify(started)}`);
    expect(await two.resend(started.id, { channel: 'sms' })).toMatchObject({ status: 'sent', id: started.id });
    expect(await two.start({ phoneNumber: '+44 (0)7700 900123', ip: '2001:db8::1' })).toMatchObject({ status: 'sent' });
    expect(await one.start({ phoneNumber: '447700900123', ip: '2001:db8::1' })).toMatchObject({ status: 'refused', reason: 'phone_limit' });
    const code = sent('447700900123')[0]!.code!;
    expect(await two.check(started.id, wrong(code))).toEqual({ status: 'invalid', attemptsLeft: 4 });
    expect(await one.check(started.id, code)).toEqual({ status: 'valid', phoneNumber: '447700900123' });
    expect(sent('447700900123')).toHaveLength(3);

    const masters = await keysPerMaster(`${prefix}*`);
    const all = masters.flatMap((m) => m.keys);
    // The number's keys (its limit, its verified mark), the IP's, the account's, the range's, the country's, the budget's, the flow.
    for (const kind of ['n:', 'v:', 'i:', 'a:', 'r:', 'c:', 'pr:', 'pc:', 'g:', 'f:']) expect(all.some((key) => key.startsWith(prefix + kind))).toBe(true);
    expect(masters.filter((m) => m.keys.length > 0).length).toBeGreaterThan(1);
    const slots = new Set(await Promise.all(all.map((key) => masters[0]!.slotOf(key))));
    expect(slots.size).toBeGreaterThan(3);
  });

  it('a range shared by many numbers trips for all of them; the IP limit holds across numbers', async () => {
    const store = createRedisStore({ client: await connect(), prefix: `${prefix}trip:` });
    const check = createGuard({ store, limits: { ip: { max: 4, windowMs: 600_000 } }, pumping: { prefix: { minStarts: 3, threshold: 0.5 }, country: false } });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await check.check({ phoneNumber: `4477009001${10 + i}`, ip: `198.51.100.${i}` }));
    expect(answers.map((a) => (a.allowed ? 'allowed' : a.reason))).toEqual(['allowed', 'allowed', 'pumping', 'pumping']);
    const ipGuard = createGuard({ store: createRedisStore({ client: await connect(), prefix: `${prefix}ip:` }), limits: { ip: { max: 2, windowMs: 600_000 } }, pumping: false });
    const byIp = [];
    for (const n of ['447700900201', '15555550123', '33612345678']) byIp.push(await ipGuard.check({ phoneNumber: n, ip: '203.0.113.9' }));
    expect(byIp.map((a) => (a.allowed ? 'allowed' : a.reason))).toEqual(['allowed', 'allowed', 'ip_limit']);
  });
});

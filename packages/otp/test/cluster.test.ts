// On a real three-master Redis Cluster: the flow and the guard with a hash-tagged prefix (every key of
// a decision in one slot), two clients sharing flows, and the limits holding across them.
import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisCluster, type RedisCluster } from '../../../testing/redis-cluster.js';
import { createOtp } from '../src/index.js';
import { createRedisStore } from '../src/redis.js';
import { emulated, wrong } from './support.js';

const SECRET = 'a secret of the tests, 32 characters or more';
let cluster: RedisCluster;
const clients: Cluster[] = [];
const connect = async () => {
  const client = new Cluster(cluster.ports.map((port) => ({ host: '127.0.0.1', port })));
  clients.push(client);
  await new Promise<void>((resolve, reject) => {
    client.once('ready', () => resolve());
    client.once('error', reject);
  });
  return client;
};

beforeAll(async () => {
  cluster = await startRedisCluster(3);
}, 30_000);
afterAll(async () => {
  for (const client of clients) client.disconnect();
  await cluster?.stop();
});

describe('@x/otp on a three-master Redis Cluster', () => {
  it('start, resend and check through two cluster clients; the number limit holds across them', async () => {
    const { client, sent } = emulated();
    const prefix = '{otp}:';
    const one = createOtp({ client, store: createRedisStore({ client: await connect(), prefix }), secret: SECRET, resendCooldownMs: 0, guard: { limits: { phone: { max: 3, windowMs: 600_000 } } } });
    const two = createOtp({ client, store: createRedisStore({ client: await connect(), prefix }), secret: SECRET, resendCooldownMs: 0, guard: { limits: { phone: { max: 3, windowMs: 600_000 } } } });
    const started = await one.start({ phoneNumber: '+44 7700 900123', ip: '2001:db8::1' });
    if (started.status !== 'sent') throw new Error(`not sent: ${JSON.stringify(started)}`);
    expect(await two.resend(started.id, { channel: 'sms' })).toMatchObject({ status: 'sent', id: started.id });
    expect(await two.start({ phoneNumber: '+44 (0)7700 900123' })).toMatchObject({ status: 'sent' });
    expect(await one.start({ phoneNumber: '447700900123' })).toMatchObject({ status: 'refused', reason: 'phone_limit' });
    const code = sent('447700900123')[0]!.code!; // the first flow's (the second start is a flow of its own)
    expect(await two.check(started.id, wrong(code))).toEqual({ status: 'invalid', attemptsLeft: 4 });
    expect(await one.check(started.id, code)).toEqual({ status: 'valid', phoneNumber: '447700900123' });
    expect(sent('447700900123')).toHaveLength(3);
  });
});

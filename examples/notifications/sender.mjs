// The notifications worker: what you deploy. It sends one personalised SMS per user with
// sendMany, at a set rate, under a spend cap, each under a key made of the run id and the user id
// (so a worker restarted with the same run id never sends a message twice), and prints a summary.
//
// Run as `node sender.mjs <baseUrl> <runId> <redisUrl> [part] [parts]`; with your account, drop baseUrl and DEFAULT_CUSTOMER:
// createClient() reads X_CUSTOMER_ID and X_API_KEY.
import { createClient } from '@x/client';
import { createIdempotency } from '@x/client/idempotency';
import { createSpendCap, sendMany } from '@x/client/volume';
import { DEFAULT_CUSTOMER } from '@x/emulator';
import { createRedisRateLimitStore, createRedisReplayStore, createRedisSpendStore } from '@x/redis';
import { Redis } from 'ioredis';

export const USERS = 1_000;
/** Sends a second, for the whole run. */
export const RATE = { perSecond: 200, burst: 10 };
/** The day's budget, in SMS parts: the last users' messages pass it and are refused before sending. */
export const BUDGET = { name: 'notifications', max: 990, periodMs: 86_400_000 };

/** Your users, from your database: here, made up. Sender `part` of `parts` takes every parts-th one. */
async function* users(part, parts) {
  for (let i = part; i < USERS; i += parts) yield { id: `user-${i}`, name: `Customer ${i}`, phone: `1555${String(7_000_000 + i)}`, order: 10_000 + i };
}

export async function send({ baseUrl, runId, redisUrl, part = 0, parts = 1 }) {
  // Keys on Redis: a worker restarted (or another one) with the same run id sends nothing twice.
  const redis = new Redis(redisUrl);
  const idempotency = createIdempotency({ store: createRedisReplayStore({ client: redis, prefix: 'notifications:' }) });
  const client = createClient({ ...DEFAULT_CUSTOMER, baseUrl, idempotency });
  // One rate and one budget for every sender process, on Redis (memory stores would hold them per process).
  const rateStore = createRedisRateLimitStore({ client: redis, prefix: 'notifications:' });
  const spend = createSpendCap({ budgets: [BUDGET], store: createRedisSpendStore({ client: redis, prefix: 'notifications:' }) });

  async function* items() {
    for await (const user of users(part, parts)) {
      yield { id: user.id, params: { phoneNumber: user.phone, message: `Hi ${user.name}, order #${user.order} has shipped.`, messageType: 'ARN' } };
    }
  }

  const summary = { sent: 0, refused: 0, unknown: 0, reasons: {}, pauses: 0, referenceIds: [] };
  const results = sendMany(client, items(), {
    runId,
    concurrency: 16,
    rate: { ...RATE, store: rateStore },
    spend,
    resume: { idempotency, customerId: DEFAULT_CUSTOMER.customerId },
    onEvent: (event) => void (event.type === 'paused' && summary.pauses++),
  });
  for await (const result of results) {
    summary[result.status]++;
    if (result.status === 'sent') summary.referenceIds.push(result.referenceId);
    if (result.status === 'refused') summary.reasons[result.reason] = (summary.reasons[result.reason] ?? 0) + 1;
    if (result.status === 'unknown') (summary.unknownErrors ??= []).push(String(result.error?.cause ?? result.error));
    // 'unknown': it may have gone out; look it up by result.referenceId or wait for its callback. Never re-sent.
  }
  redis.disconnect();
  return summary;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [baseUrl, runId, redisUrl, part = '0', parts = '1'] = process.argv.slice(2);
  process.stdout.write(`${JSON.stringify(await send({ baseUrl, runId, redisUrl, part: Number(part), parts: Number(parts) }))}\n`);
}

/**
 * The guard's windows and the flows on Redis, shared by every process: one Lua script per
 * decision, per check and per send.
 *
 * @packageDocumentation
 * @module @x/otp/redis
 */
import { XError } from '@x/auth';
import type { RedisCommands } from '@x/redis';
import type { FlowRecord, GuardPlan, GuardVerdict, OtpStore, SendClaim } from './store.js';

export interface RedisStoreOptions {
  /** An ioredis client (or anything with its `eval(script, numKeys, ...args)`), as `@x/redis` takes it. */
  client: Pick<RedisCommands, 'eval'>;
  /** Prefix of every key. Default `x:otp:`. */
  prefix?: string | undefined;
}

// One decision, in the order of GuardPlan: circuit, cooling, limits, pumping, budget, then record.
// KEYS: circuit, budget, cooling[1..s], limits[1..l], counters[1..s].
// ARGV: now, l, s, circuitMax, circuitWindow, openMs, bucketMs, buckets, minStarts, threshold,
// coolMs, start, then max and window of each limit.
const DECIDE = `local now = tonumber(ARGV[1])
local l, s = tonumber(ARGV[2]), tonumber(ARGV[3])
local cmax, cwin, openMs = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local bucketMs, buckets, minStarts = tonumber(ARGV[7]), tonumber(ARGV[8]), tonumber(ARGV[9])
local threshold, coolMs, start = tonumber(ARGV[10]), tonumber(ARGV[11]), ARGV[12] == '1'
-- A circuit or cooling mark holds the time it ends (its key expires then too).
local function remaining(key)
  local v = redis.call('GET', key)
  if v and tonumber(v) > now then return tonumber(v) - now end
  return 0
end
if cmax > 0 and remaining(KEYS[1]) > 0 then return {1, 0, remaining(KEYS[1]), 0} end
for i = 1, s do
  local wait = remaining(KEYS[2 + i])
  if wait > 0 then return {3, i - 1, wait, 0} end
end
local refused, wait = -1, 0
local function waitOf(key, max, win)
  local oldest = redis.call('LINDEX', key, max - 1)
  if not oldest then return 0 end
  return math.max(0, tonumber(oldest) + win - now)
end
for j = 1, l do
  local w = waitOf(KEYS[2 + s + j], tonumber(ARGV[11 + 2 * j]), tonumber(ARGV[12 + 2 * j]))
  if w > 0 and refused < 0 then refused = j - 1 end
  if w > wait then wait = w end
end
if refused >= 0 then return {2, refused, wait, 0} end
local epoch = math.floor(now / bucketMs)
local function sums(key)
  local started, completed = 0, 0
  local all = redis.call('HGETALL', key)
  for k = 1, #all, 2 do
    local field = all[k]
    local e = tonumber(string.sub(field, 2))
    if e > epoch - buckets then
      if string.sub(field, 1, 1) == 's' then started = started + tonumber(all[k + 1]) else completed = completed + tonumber(all[k + 1]) end
    else
      redis.call('HDEL', key, field)
    end
  end
  return started, completed
end
if start then
  for i = 1, s do
    local started, completed = sums(KEYS[2 + s + l + i])
    local n = started + 1
    if n >= minStarts and n - math.min(completed, n) >= threshold * n then
      redis.call('SET', KEYS[2 + i], now + coolMs, 'PX', coolMs)
      return {3, i - 1, coolMs, 1, started, completed}
    end
  end
end
if cmax > 0 and waitOf(KEYS[2], cmax, cwin) > 0 then
  redis.call('SET', KEYS[1], now + openMs, 'PX', openMs)
  return {1, 0, openMs, 1}
end
local function push(key, max, win)
  redis.call('LPUSH', key, now)
  redis.call('LTRIM', key, 0, max - 1)
  redis.call('PEXPIRE', key, win)
end
for j = 1, l do push(KEYS[2 + s + j], tonumber(ARGV[11 + 2 * j]), tonumber(ARGV[12 + 2 * j])) end
if cmax > 0 then push(KEYS[2], cmax, cwin) end
if start then
  for i = 1, s do
    local key = KEYS[2 + s + l + i]
    redis.call('HINCRBY', key, 's' .. epoch, 1)
    redis.call('PEXPIRE', key, bucketMs * buckets)
  end
end
return {0, 0, 0, 0}`;

// ARGV: now, bucketMs, buckets.
const COMPLETE = `local epoch = math.floor(tonumber(ARGV[1]) / tonumber(ARGV[2]))
for i = 1, #KEYS do
  redis.call('HINCRBY', KEYS[i], 'c' .. epoch, 1)
  redis.call('PEXPIRE', KEYS[i], tonumber(ARGV[2]) * tonumber(ARGV[3]))
end
return 1`;

const CREATE = `redis.call('HSET', KEYS[1], unpack(ARGV, 2))
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1`;
const GET = `return redis.call('HGETALL', KEYS[1])`;
// ARGV: now, cooldownMs, maxSends. Answers the outcome, the wait, then the record's fields.
const CLAIM_SEND = `if redis.call('EXISTS', KEYS[1]) == 0 then return {'missing', 0} end
local f = redis.call('HMGET', KEYS[1], 'state', 'sends', 'lastSendAt', 'expiresAt')
local now, sends = tonumber(ARGV[1]), tonumber(f[2])
if f[1] ~= 'pending' then return {'closed', 0} end
if sends >= tonumber(ARGV[3]) then return {'max', math.max(0, tonumber(f[4]) - now)} end
local wait = tonumber(f[3]) + tonumber(ARGV[2]) - now
if sends > 0 and wait > 0 then return {'cooldown', wait} end
redis.call('HSET', KEYS[1], 'sends', sends + 1, 'lastSendAt', now)
local out = {'ok', 0}
for _, v in ipairs(redis.call('HGETALL', KEYS[1])) do out[#out + 1] = v end
return out`;
const CLAIM_ATTEMPT = `if redis.call('EXISTS', KEYS[1]) == 0 then return {} end
if redis.call('HGET', KEYS[1], 'state') == 'pending' then redis.call('HINCRBY', KEYS[1], 'attempts', 1) end
return redis.call('HGETALL', KEYS[1])`;
const UPDATE = `if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV))
return 1`;
const DELETE = `return redis.call('DEL', KEYS[1])`;
const CLOSE = `if redis.call('HGET', KEYS[1], 'state') ~= 'pending' then return 0 end
redis.call('HSET', KEYS[1], 'state', ARGV[1])
return 1`;

const NUMBERS = ['channel', 'createdAt', 'expiresAt', 'sends', 'lastSendAt', 'attempts'] as const;

/** A record from the flat field list HGETALL answers. */
function recordOf(flat: unknown): FlowRecord | undefined {
  if (!Array.isArray(flat) || flat.length === 0) return undefined;
  const fields: Record<string, string | number> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) fields[String(flat[i])] = String(flat[i + 1]);
  for (const name of NUMBERS) fields[name] = Number(fields[name]);
  return fields as unknown as FlowRecord;
}

const pairs = (fields: object) => Object.entries(fields).flatMap(([name, value]) => (value === undefined ? [] : [name, String(value)]));

/**
 * The store of `createGuard` and `createOtp` on Redis: every process sharing the Redis shares
 * the limits, the pumping counters and the flows, so a flow started in one process is checked in
 * another. Each decision, send and check is one script (one round trip). When Redis cannot be
 * reached, each call rejects: the guard then refuses (`store_unavailable`) unless `failOpen`, and
 * the flow answers `refused` with `store_unavailable`.
 *
 * @example
 * ```ts
 * import { Redis } from 'ioredis';
 * import { createClient } from '@x/client';
 * import { createOtp } from '@x/otp';
 * import { createRedisStore } from '@x/otp/redis';
 *
 * const store = createRedisStore({ client: new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'), prefix: 'myapp:otp:' });
 * const otp = createOtp({ client: createClient(), store });
 * ```
 */
export function createRedisStore(options: RedisStoreOptions): OtpStore {
  const client = options?.client;
  if (!client || typeof client.eval !== 'function') {
    throw new XError('invalid_options', 'createRedisStore needs { client }: an ioredis client, e.g. new Redis(process.env.REDIS_URL).');
  }
  const prefix = options.prefix ?? 'x:otp:';
  const flow = (id: string) => `${prefix}f:${id}`;

  return {
    async decide(plan: GuardPlan): Promise<GuardVerdict> {
      const { circuit, pumping, limits } = plan;
      const scopes = pumping?.scopes ?? [];
      const keys = [
        prefix + (circuit?.key ?? 'g!'), prefix + (circuit?.budgetKey ?? 'g'),
        ...scopes.map((s) => prefix + s.cooling), ...limits.map((l) => prefix + l.key), ...scopes.map((s) => prefix + s.counter),
      ];
      const args = [
        plan.now, limits.length, scopes.length, circuit?.max ?? 0, circuit?.windowMs ?? 1, circuit?.openMs ?? 1,
        pumping?.bucketMs ?? 1, pumping?.buckets ?? 1, pumping?.minStarts ?? 1, pumping?.threshold ?? 1, pumping?.coolMs ?? 1, pumping?.start ? 1 : 0,
        ...limits.flatMap((l) => [l.max, l.windowMs]),
      ];
      const answer = (await client.eval(DECIDE, keys.length, ...keys, ...args)) as number[];
      const [kind, index = 0, retryAfterMs = 0, flag = 0, started = 0, completed = 0] = answer.map(Number);
      if (kind === 0) return { allowed: true };
      if (kind === 1) return { allowed: false, refusal: 'circuit', retryAfterMs, opened: flag === 1 };
      if (kind === 2) return { allowed: false, refusal: 'limit', index, retryAfterMs };
      return { allowed: false, refusal: 'cooling', index, retryAfterMs, tripped: flag === 1 ? { started, completed } : undefined };
    },
    async complete(counters, now, bucketMs, buckets) {
      if (counters.length) await client.eval(COMPLETE, counters.length, ...counters.map((c) => prefix + c), now, bucketMs, buckets);
    },
    async createFlow(record, ttlMs) {
      await client.eval(CREATE, 1, flow(record.id), Math.max(1, Math.ceil(ttlMs)), ...pairs(record));
    },
    async getFlow(id) {
      return recordOf(await client.eval(GET, 1, flow(id)));
    },
    async claimSend(id, now, cooldownMs, maxSends): Promise<SendClaim> {
      const answer = (await client.eval(CLAIM_SEND, 1, flow(id), now, cooldownMs, maxSends)) as unknown[];
      const outcome = String(answer[0]) as 'ok' | 'missing' | 'closed' | 'cooldown' | 'max';
      if (outcome === 'ok') return { ok: true, record: recordOf(answer.slice(2))! };
      return { ok: false, reason: outcome, retryAfterMs: Number(answer[1]) };
    },
    async claimAttempt(id) {
      return recordOf(await client.eval(CLAIM_ATTEMPT, 1, flow(id)));
    },
    async closeFlow(id, state) {
      return (await client.eval(CLOSE, 1, flow(id), state)) === 1;
    },
    async updateFlow(id, fields) {
      const args = pairs(fields);
      if (args.length) await client.eval(UPDATE, 1, flow(id), ...args);
    },
    async deleteFlow(id) {
      await client.eval(DELETE, 1, flow(id));
    },
  };
}

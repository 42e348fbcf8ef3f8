/**
 * The guard's windows and the flows on Redis, shared by every process: one Lua script per
 * decision, per check and per send.
 *
 * @packageDocumentation
 * @module @x/otp/redis
 */
import { redisScripts, type RedisClient } from '@x/redis';
import type { AttemptOutcome, FlowRecord, OtpStore, SendClaim } from './store.js';

export interface RedisStoreOptions {
  /** A client `@x/redis` supports ({@link RedisClient}): ioredis 5 or 6, iovalkey, node-redis 5 or 6, valkey-glide 2, single or Cluster. Any other object is refused at creation (`XError('unsupported_client')`). */
  client: RedisClient;
  /** Prefix of every key. Default `x:otp:`. */
  prefix?: string | undefined;
}

// A send's claim, shared by the claim script and the decision that counts a resend: nil when the
// send may go, else the refusal and the wait. Reads only.
const CLAIMABLE = `local function claimable(key, now, cooldown, maxSends)
  local f = redis.call('HMGET', key, 'state', 'sends', 'lastSendAt', 'expiresAt')
  if not f[1] or tonumber(f[4]) <= now then return {'missing', 0} end
  if f[1] ~= 'pending' then return {'closed', 0} end
  local sends = tonumber(f[2])
  if sends >= maxSends then return {'max', 0} end
  local wait = tonumber(f[3]) + cooldown - now
  if sends > 0 and wait > 0 then return {'cooldown', wait} end
  return nil
end
local function claimed(key, now)
  redis.call('HINCRBY', key, 'sends', 1)
  redis.call('HSET', key, 'lastSendAt', now)
  local out = {'ok', 0}
  for _, v in ipairs(redis.call('HGETALL', key)) do out[#out + 1] = v end
  return out
end
`;

// One decision, in the order of GuardPlan: circuit, cooling, limits, pumping, budget, then record
// (and create the flow or count its send, when asked).
// KEYS: circuit, budget, verified, cooling[1..s], limits[1..l], counters[1..s], then the flow.
// ARGV: now, l, s, circuitMax, circuitWindow, openMs, bucketMs, buckets, coolMs, start, trusted,
// then (0 nothing, 1 create, 2 claim); minStarts and threshold of each scope; max and window of each
// limit; then ttlMs and the record's fields (create) or cooldownMs and maxSends (claim).
const DECIDE = `${CLAIMABLE}
local now = tonumber(ARGV[1])
local l, s = tonumber(ARGV[2]), tonumber(ARGV[3])
local cmax, cwin, openMs = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local bucketMs, buckets, coolMs = tonumber(ARGV[7]), tonumber(ARGV[8]), tonumber(ARGV[9])
local start, trusted, after = ARGV[10] == '1', ARGV[11] == '1', tonumber(ARGV[12])
local scopeArg, limitArg, thenArg = 12, 12 + 2 * s, 12 + 2 * s + 2 * l
local flowKey = KEYS[3 + 2 * s + l + 1]
if after == 2 then
  local refused = claimable(flowKey, now, tonumber(ARGV[thenArg + 1]), tonumber(ARGV[thenArg + 2]))
  if refused then return {5, refused[1], refused[2]} end
end
-- A circuit or cooling mark holds the time it ends (its key expires then too).
local function remaining(key)
  local v = redis.call('GET', key)
  if v and tonumber(v) > now then return tonumber(v) - now end
  return 0
end
if not trusted and redis.call('EXISTS', KEYS[3]) == 1 then trusted = true end
if cmax > 0 and not trusted and remaining(KEYS[1]) > 0 then return {1, 0, remaining(KEYS[1]), 0} end
if not trusted then
  for i = 1, s do
    local wait = remaining(KEYS[3 + i])
    if wait > 0 then return {3, i - 1, wait, 0} end
  end
end
local refused, wait = -1, 0
local function waitOf(key, max, win)
  local oldest = redis.call('LINDEX', key, max - 1)
  if not oldest then return 0 end
  return math.max(0, tonumber(oldest) + win - now)
end
for j = 1, l do
  local w = waitOf(KEYS[3 + s + j], tonumber(ARGV[limitArg + 2 * j - 1]), tonumber(ARGV[limitArg + 2 * j]))
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
if start and not trusted then
  for i = 1, s do
    local counter = KEYS[3 + s + l + i]
    local started, completed = sums(counter)
    local n = started + 1
    local minStarts, threshold = tonumber(ARGV[scopeArg + 2 * i - 1]), tonumber(ARGV[scopeArg + 2 * i])
    if n >= minStarts and n - math.min(completed, n) >= threshold * n then
      redis.call('SET', KEYS[3 + i], now + coolMs, 'PX', coolMs)
      redis.call('DEL', counter)
      return {3, i - 1, coolMs, 1, started, completed}
    end
  end
end
if cmax > 0 and not trusted and waitOf(KEYS[2], cmax, cwin) > 0 then
  redis.call('SET', KEYS[1], now + openMs, 'PX', openMs)
  return {1, 0, openMs, 1}
end
local function push(key, max, win)
  redis.call('LPUSH', key, now)
  redis.call('LTRIM', key, 0, max - 1)
  redis.call('PEXPIRE', key, win)
end
for j = 1, l do push(KEYS[3 + s + j], tonumber(ARGV[limitArg + 2 * j - 1]), tonumber(ARGV[limitArg + 2 * j])) end
if cmax > 0 then push(KEYS[2], cmax, cwin) end
if start then
  for i = 1, s do
    local key = KEYS[3 + s + l + i]
    redis.call('HINCRBY', key, 's' .. epoch, 1)
    redis.call('PEXPIRE', key, bucketMs * buckets)
  end
end
if after == 1 then
  redis.call('HSET', flowKey, unpack(ARGV, thenArg + 2))
  redis.call('PEXPIRE', flowKey, ARGV[thenArg + 1])
end
if after == 2 then
  local out = claimed(flowKey, now)
  out[1] = 6
  return out
end
return {0, 0, 0, 0}`;

// KEYS: the counters, then the verified mark. ARGV: now, bucketMs, buckets, verifiedMs.
const COMPLETE = `local epoch = math.floor(tonumber(ARGV[1]) / tonumber(ARGV[2]))
for i = 1, #KEYS - 1 do
  redis.call('HINCRBY', KEYS[i], 'c' .. epoch, 1)
  redis.call('PEXPIRE', KEYS[i], tonumber(ARGV[2]) * tonumber(ARGV[3]))
end
redis.call('SET', KEYS[#KEYS], 1, 'PX', ARGV[4])
return 1`;

const CREATE = `redis.call('HSET', KEYS[1], unpack(ARGV, 2))
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1`;
const GET = `return redis.call('HGETALL', KEYS[1])`;
// ARGV: now, cooldownMs, maxSends. Answers the outcome, the wait, then the record's fields.
const CLAIM_SEND = `${CLAIMABLE}
local now = tonumber(ARGV[1])
local refused = claimable(KEYS[1], now, tonumber(ARGV[2]), tonumber(ARGV[3]))
if refused then return refused end
return claimed(KEYS[1], now)`;
// ARGV: now, correct (1/0), maxAttempts. Answers the outcome, attempts left, then the record's fields when valid.
const ATTEMPT = `local f = redis.call('HMGET', KEYS[1], 'state', 'attempts', 'expiresAt')
local now, max = tonumber(ARGV[1]), tonumber(ARGV[3])
if f[1] ~= 'pending' or tonumber(f[3]) <= now then return {'expired', 0} end
local attempts = tonumber(f[2])
if attempts >= max then return {'locked', 0} end
if ARGV[2] == '1' then
  redis.call('HSET', KEYS[1], 'state', 'valid')
  local out = {'valid', 0}
  for _, v in ipairs(redis.call('HGETALL', KEYS[1])) do out[#out + 1] = v end
  return out
end
attempts = redis.call('HINCRBY', KEYS[1], 'attempts', 1)
if attempts >= max then return {'locked', 0} end
return {'invalid', max - attempts}`;
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
  const redis = redisScripts(options?.client, 'createRedisStore');
  const prefix = options.prefix ?? 'x:otp:';
  const flow = (id: string) => `${prefix}f:${id}`;
  const claimOf = (answer: unknown[]): SendClaim => {
    const outcome = String(answer[0]) as 'ok' | '6' | 'missing' | 'closed' | 'cooldown' | 'max';
    if (outcome === 'ok' || outcome === '6') return { ok: true, record: recordOf(answer.slice(2))! };
    return { ok: false, reason: outcome as 'missing', retryAfterMs: Number(answer[1]) };
  };

  return {
    shared: true,
    async decide(plan, then) {
      const { circuit, pumping, limits } = plan;
      const scopes = pumping?.scopes ?? [];
      const flowId = then ? ('create' in then ? then.create.record.id : then.claim.id) : undefined;
      const keys = [
        prefix + (circuit?.key ?? 'g!'), prefix + (circuit?.budgetKey ?? 'g'), prefix + plan.verified,
        ...scopes.map((s) => prefix + s.cooling), ...limits.map((l) => prefix + l.key), ...scopes.map((s) => prefix + s.counter),
        ...(flowId === undefined ? [] : [flow(flowId)]),
      ];
      const args = [
        plan.now, limits.length, scopes.length, circuit?.max ?? 0, circuit?.windowMs ?? 1, circuit?.openMs ?? 1,
        pumping?.bucketMs ?? 1, pumping?.buckets ?? 1, pumping?.coolMs ?? 1, pumping?.start ? 1 : 0, plan.trusted ? 1 : 0,
        then ? ('create' in then ? 1 : 2) : 0,
        ...scopes.flatMap((s) => [s.minStarts, s.threshold]),
        ...limits.flatMap((l) => [l.max, l.windowMs]),
        ...(then ? ('create' in then ? [Math.max(1, Math.ceil(then.create.ttlMs)), ...pairs(then.create.record)] : [then.claim.cooldownMs, then.claim.maxSends]) : []),
      ];
      const answer = (await redis.eval(DECIDE, keys, args)) as unknown[];
      const kind = Number(answer[0]);
      if (kind === 5) return claimOf(answer.slice(1));
      if (kind === 6) return claimOf(answer);
      const [, index = 0, retryAfterMs = 0, flag = 0, started = 0, completed = 0] = answer.map(Number);
      if (kind === 0) return { allowed: true };
      if (kind === 1) return { allowed: false, refusal: 'circuit', retryAfterMs, opened: flag === 1 };
      if (kind === 2) return { allowed: false, refusal: 'limit', index, retryAfterMs };
      return { allowed: false, refusal: 'cooling', index, retryAfterMs, tripped: flag === 1 ? { started, completed } : undefined };
    },
    async complete({ now, counters, bucketMs, buckets, verified, verifiedMs }) {
      await redis.eval(COMPLETE, [...counters.map((c) => prefix + c), prefix + verified], [now, bucketMs, buckets, Math.max(1, Math.ceil(verifiedMs))]);
    },
    async createFlow({ record, ttlMs }) {
      await redis.eval(CREATE, [flow(record.id)], [Math.max(1, Math.ceil(ttlMs)), ...pairs(record)]);
    },
    async getFlow(id) {
      return recordOf(await redis.eval(GET, [flow(id)], []));
    },
    async claimSend(send, now) {
      return claimOf((await redis.eval(CLAIM_SEND, [flow(send.id)], [now, send.cooldownMs, send.maxSends])) as unknown[]);
    },
    async attempt(id, now, correct, maxAttempts): Promise<AttemptOutcome> {
      const answer = (await redis.eval(ATTEMPT, [flow(id)], [now, correct ? 1 : 0, maxAttempts])) as unknown[];
      const outcome = String(answer[0]);
      if (outcome === 'valid') return { outcome, record: recordOf(answer.slice(2))! };
      if (outcome === 'invalid') return { outcome, attemptsLeft: Number(answer[1]) };
      return { outcome: outcome === 'locked' ? 'locked' : 'expired' };
    },
    async closeFlow(id, state) {
      return Number(await redis.eval(CLOSE, [flow(id)], [state])) === 1;
    },
    async updateFlow(id, fields) {
      const args = pairs(fields);
      if (args.length) await redis.eval(UPDATE, [flow(id)], args);
    },
    async deleteFlow(id) {
      await redis.eval(DELETE, [flow(id)], []);
    },
  };
}

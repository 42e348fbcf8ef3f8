/**
 * The guard's windows and the flows on Redis, shared by every process: one Lua script per
 * decision, per check and per send.
 *
 * @packageDocumentation
 * @module @x/otp/redis
 */
import { redisScripts, type RedisClient } from '@x/redis';
import type { AttemptOutcome, FlowRecord, GuardPlan, GuardVerdict, NewFlow, OtpStore, SendClaim, SendPlan } from './store.js';

export interface RedisStoreOptions {
  /** A client `@x/redis` supports (its `RedisClient`): ioredis 5 or 6, iovalkey, node-redis 5 or 6, valkey-glide 2, single or Cluster. Any other object is refused at creation (`XError('unsupported_client')`). */
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

// Cluster: a decision's keys are read in one script per hash tag, all at once; then, when it
// allows (or trips a scope, or opens the circuit), written in one script per tag, all at once.
// READ: ARGV[1] = now, then per key an op and two numbers; answers two numbers per key.
//   m: a mark's time left; e: 1 when the key exists; w max win: a window's wait;
//   c bucketMs buckets: started and completed in the live buckets; f cooldown maxSends: a flow's claim (0 ok, else 1 missing, 2 closed, 3 max, 4 cooldown) and its wait.
const READ = `${CLAIMABLE}
local now = tonumber(ARGV[1])
local out = {}
for i = 1, #KEYS do
  local op, a, b, key = ARGV[3 * i - 1], tonumber(ARGV[3 * i]), tonumber(ARGV[3 * i + 1]), KEYS[i]
  local x, y = 0, 0
  if op == 'm' then
    local v = tonumber(redis.call('GET', key) or '0')
    if v > now then x = v - now end
  elseif op == 'e' then
    x = redis.call('EXISTS', key)
  elseif op == 'w' then
    local oldest = redis.call('LINDEX', key, a - 1)
    if oldest then x = math.max(0, tonumber(oldest) + b - now) end
  elseif op == 'c' then
    local epoch = math.floor(now / a)
    local all = redis.call('HGETALL', key)
    for k = 1, #all, 2 do
      if tonumber(string.sub(all[k], 2)) > epoch - b then
        if string.sub(all[k], 1, 1) == 's' then x = x + tonumber(all[k + 1]) else y = y + tonumber(all[k + 1]) end
      end
    end
  elseif op == 'f' then
    local refused = claimable(key, now, a, b)
    if refused then
      x = ({missing = 1, closed = 2, max = 3, cooldown = 4})[refused[1]]
      y = refused[2]
    end
  end
  out[#out + 1] = x
  out[#out + 1] = y
end
return out`;
// WRITE: ARGV[1] = now, then per key an op and two numbers. Windows first: when one of this
// script's windows filled up since it was read (another process recorded meanwhile), nothing is
// written and the wait answers; else 0.
//   s ms: a mark until now + ms; d: delete; p max win: record in a window; n bucketMs buckets: count a
//   start; k bucketMs buckets: count a completion.
const WRITE = `local now = tonumber(ARGV[1])
for i = 1, #KEYS do
  if ARGV[3 * i - 1] == 'p' then
    local oldest = redis.call('LINDEX', KEYS[i], tonumber(ARGV[3 * i]) - 1)
    if oldest and tonumber(oldest) + tonumber(ARGV[3 * i + 1]) > now then return tonumber(oldest) + tonumber(ARGV[3 * i + 1]) - now end
  end
end
for i = 1, #KEYS do
  local op, a, b, key = ARGV[3 * i - 1], tonumber(ARGV[3 * i]), tonumber(ARGV[3 * i + 1]), KEYS[i]
  if op == 's' then
    redis.call('SET', key, now + a, 'PX', a)
  elseif op == 'd' then
    redis.call('DEL', key)
  elseif op == 'p' then
    redis.call('LPUSH', key, now)
    redis.call('LTRIM', key, 0, a - 1)
    redis.call('PEXPIRE', key, b)
  elseif op == 'n' then
    local epoch = math.floor(now / a)
    for _, field in ipairs(redis.call('HKEYS', key)) do
      if tonumber(string.sub(field, 2)) <= epoch - b then redis.call('HDEL', key, field) end
    end
    redis.call('HINCRBY', key, 's' .. epoch, 1)
    redis.call('PEXPIRE', key, a * b)
  elseif op == 'k' then
    redis.call('HINCRBY', key, 'c' .. math.floor(now / a), 1)
    redis.call('PEXPIRE', key, a * b)
  end
end
return 0`;

/**
 * A key's name in Redis: `<prefix><kind>:{<value>}`. The hash tag is the key's value (a number,
 * range, country, IP, account, flow id; the global circuit's `g`), so a number's keys share a slot
 * and keys of other numbers and scopes spread over a Cluster's shards. Braces in a value (an
 * account id) are escaped so they never end the tag early. A prefix with a tag of its own
 * (`'{otp}:'`) puts every key in its slot, as before.
 */
function keyName(prefix: string, key: string): string {
  const colon = key.indexOf(':');
  const kind = colon < 0 ? key : key.slice(0, colon);
  const value = colon < 0 ? key.replace(/!$/, '') : key.slice(colon + 1);
  return `${prefix}${kind}:{${value.replace(/[{}%]/g, (c) => `%${c.charCodeAt(0).toString(16)}`)}}`;
}

/** The hash tag of a key name `keyName` gave (the prefix's own tag first, as Redis reads it). */
function tagOf(name: string): string {
  const open = name.indexOf('{');
  const close = name.indexOf('}', open + 1);
  return close > open + 1 ? name.slice(open + 1, close) : name;
}

type Op = [name: string, op: string, a: number, b: number];

/** Runs ops grouped by hash tag: one script per tag, all sent at once. Answers each op's result pair, in order. */
async function perTag(run: (script: string, keys: string[], args: Array<string | number>) => Promise<unknown>, script: string, now: number, ops: Op[]) {
  const groups = new Map<string, number[]>();
  ops.forEach(([name], i) => groups.set(tagOf(name), [...(groups.get(tagOf(name)) ?? []), i]));
  const answers = await Promise.all(
    [...groups.values()].map((indexes) => run(script, indexes.map((i) => ops[i]![0]), [now, ...indexes.flatMap((i) => [ops[i]![1], ops[i]![2], ops[i]![3]])])),
  );
  const out: Array<[number, number]> = [];
  [...groups.values()].forEach((indexes, g) => {
    const answer = answers[g];
    indexes.forEach((i, k) => (out[i] = Array.isArray(answer) ? [Number(answer[2 * k]), Number(answer[2 * k + 1])] : [Number(answer), 0]));
  });
  return { out };
}

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
  const k = (key: string) => keyName(prefix, key);
  const flow = (id: string) => k(`f:${id}`);
  const claimOf = (answer: unknown[]): SendClaim => {
    const outcome = String(answer[0]) as 'ok' | '6' | 'missing' | 'closed' | 'cooldown' | 'max';
    if (outcome === 'ok' || outcome === '6') return { ok: true, record: recordOf(answer.slice(2))! };
    return { ok: false, reason: outcome as 'missing', retryAfterMs: Number(answer[1]) };
  };
  const createArgs = (create: NewFlow) => [Math.max(1, Math.ceil(create.ttlMs)), ...pairs(create.record)];

  /** A decision whose keys lie in several slots of a Cluster: read per tag, decide here, write per tag (two round trips, each one script per tag sent at once). */
  async function decideAcrossSlots(plan: GuardPlan, then: { create: NewFlow } | { claim: SendPlan } | undefined): Promise<GuardVerdict | SendClaim> {
    const { now, circuit, limits } = plan;
    const pumping = plan.pumping;
    const scopes = pumping?.scopes ?? [];
    const cmax = circuit?.max ?? 0;
    const reads: Op[] = [[k(plan.verified), 'e', 0, 0]];
    if (circuit && cmax > 0) reads.push([k(circuit.key), 'm', 0, 0], [k(circuit.budgetKey), 'w', circuit.max, circuit.windowMs]);
    const scopeAt = reads.length;
    for (const scope of scopes) reads.push([k(scope.cooling), 'm', 0, 0], [k(scope.counter), 'c', pumping!.bucketMs, pumping!.buckets]);
    const limitAt = reads.length;
    for (const limit of limits) reads.push([k(limit.key), 'w', limit.max, limit.windowMs]);
    const claim = then && 'claim' in then ? then.claim : undefined;
    if (claim) reads.push([flow(claim.id), 'f', claim.cooldownMs, claim.maxSends]);
    const { out } = await perTag(redis.eval, READ, now, reads);

    if (claim) {
      const [refused, wait] = out[reads.length - 1]!;
      if (refused) return { ok: false, reason: (['missing', 'closed', 'max', 'cooldown'] as const)[refused - 1]!, retryAfterMs: wait };
    }
    const trusted = plan.trusted || out[0]![0] === 1;
    if (cmax > 0 && !trusted && out[1]![0] > 0) return { allowed: false, refusal: 'circuit', retryAfterMs: out[1]![0], opened: false };
    if (!trusted) {
      const cooling = scopes.findIndex((_, i) => out[scopeAt + 2 * i]![0] > 0);
      if (cooling >= 0) return { allowed: false, refusal: 'cooling', index: cooling, retryAfterMs: out[scopeAt + 2 * cooling]![0] };
    }
    const waits = limits.map((_, j) => out[limitAt + j]![0]);
    const limited = waits.findIndex((wait) => wait > 0);
    if (limited >= 0) return { allowed: false, refusal: 'limit', index: limited, retryAfterMs: Math.max(...waits) };
    if (pumping?.start && !trusted) {
      for (const [i, scope] of scopes.entries()) {
        const [started, completed] = out[scopeAt + 2 * i + 1]!;
        const n = started + 1;
        if (n >= scope.minStarts && n - Math.min(completed, n) >= scope.threshold * n) {
          await perTag(redis.eval, WRITE, now, [[k(scope.cooling), 's', pumping.coolMs, 0], [k(scope.counter), 'd', 0, 0]]);
          return { allowed: false, refusal: 'cooling', index: i, retryAfterMs: pumping.coolMs, tripped: { started, completed } };
        }
      }
    }
    if (circuit && cmax > 0 && !trusted && out[2]![0] > 0) {
      await perTag(redis.eval, WRITE, now, [[k(circuit.key), 's', circuit.openMs, 0]]);
      return { allowed: false, refusal: 'circuit', retryAfterMs: circuit.openMs, opened: true };
    }
    // Allowed: record everywhere at once. A window another process filled since the read refuses its
    // slot's writes (the others stay recorded: a race costs an extra count, never a missed one).
    const writes: Op[] = limits.map((limit) => [k(limit.key), 'p', limit.max, limit.windowMs]);
    if (circuit && cmax > 0) writes.push([k(circuit.budgetKey), 'p', circuit.max, circuit.windowMs]);
    if (pumping?.start) for (const scope of scopes) writes.push([k(scope.counter), 'n', pumping.bucketMs, pumping.buckets]);
    const follow = then
      ? 'create' in then
        ? redis.eval(CREATE, [flow(then.create.record.id)], createArgs(then.create))
        : redis.eval(CLAIM_SEND, [flow(then.claim.id)], [now, then.claim.cooldownMs, then.claim.maxSends])
      : undefined;
    const [{ out: written }, followed] = await Promise.all([perTag(redis.eval, WRITE, now, writes), follow]);
    const raced = writes.findIndex(([, op], i) => op === 'p' && written[i]![0] > 0);
    if (raced >= 0) {
      const wait = written[raced]![0];
      return raced < limits.length ? { allowed: false, refusal: 'limit', index: raced, retryAfterMs: wait } : { allowed: false, refusal: 'circuit', retryAfterMs: wait, opened: false };
    }
    if (then && 'claim' in then) return claimOf(followed as unknown[]);
    return { allowed: true };
  }

  return {
    shared: true,
    async decide(plan, then) {
      const { circuit, pumping, limits } = plan;
      const scopes = pumping?.scopes ?? [];
      const flowId = then ? ('create' in then ? then.create.record.id : then.claim.id) : undefined;
      const keys = [
        k(circuit?.key ?? 'g!'), k(circuit?.budgetKey ?? 'g'), k(plan.verified),
        ...scopes.map((s) => k(s.cooling)), ...limits.map((l) => k(l.key)), ...scopes.map((s) => k(s.counter)),
        ...(flowId === undefined ? [] : [flow(flowId)]),
      ];
      // On a Cluster, keys of several slots cannot meet in one script.
      if (redis.cluster && new Set(keys.map(tagOf)).size > 1) return decideAcrossSlots(plan, then);
      const args = [
        plan.now, limits.length, scopes.length, circuit?.max ?? 0, circuit?.windowMs ?? 1, circuit?.openMs ?? 1,
        pumping?.bucketMs ?? 1, pumping?.buckets ?? 1, pumping?.coolMs ?? 1, pumping?.start ? 1 : 0, plan.trusted ? 1 : 0,
        then ? ('create' in then ? 1 : 2) : 0,
        ...scopes.flatMap((s) => [s.minStarts, s.threshold]),
        ...limits.flatMap((l) => [l.max, l.windowMs]),
        ...(then ? ('create' in then ? createArgs(then.create) : [then.claim.cooldownMs, then.claim.maxSends]) : []),
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
      const keys = [...counters.map(k), k(verified)];
      if (redis.cluster && new Set(keys.map(tagOf)).size > 1) {
        await perTag(redis.eval, WRITE, now, [...counters.map((c): Op => [k(c), 'k', bucketMs, buckets]), [k(verified), 's', Math.max(1, Math.ceil(verifiedMs)), 0]]);
        return;
      }
      await redis.eval(COMPLETE, keys, [now, bucketMs, buckets, Math.max(1, Math.ceil(verifiedMs))]);
    },
    async createFlow({ record, ttlMs }) {
      await redis.eval(CREATE, [flow(record.id)], createArgs({ record, ttlMs }));
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

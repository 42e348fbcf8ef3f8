// One rate for every process: three real Node processes (test/fixtures/pacer.mjs, the built store,
// each with its own connection) acquire slots of one limiter on the suite's real redis-server. The
// slots they are handed add up to the configured rate, and a pause set by a fourth client (a 429
// seen elsewhere) holds all three until its end.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createRedisRateLimitStore } from '../src/index.js';

const port = inject('redisPort');
const redis = new Redis({ port, host: '127.0.0.1' });
afterAll(() => redis.disconnect());

/** Three pacers, started together once all three are connected: when they start, and the slots each was handed. */
async function pacers(env: Record<string, string | number>, during?: (startAt: number) => Promise<void>) {
  const children = [1, 2, 3].map(() =>
    spawn(process.execPath, [fileURLToPath(new URL('./fixtures/pacer.mjs', import.meta.url))], {
      env: { ...process.env, REDIS_PORT: String(port), ...Object.fromEntries(Object.entries(env).map(([k, v]) => [k, String(v)])) },
      stdio: ['pipe', 'pipe', 'inherit'],
    }),
  );
  const outs = children.map(() => ({ text: '' }));
  const ready = children.map((child, i) => new Promise<void>((resolve) => child.stdout.on('data', (chunk) => ((outs[i]!.text += chunk), outs[i]!.text.startsWith('ready\n') && resolve()))));
  const done = children.map(
    (child, i) =>
      new Promise<number[]>((resolve, reject) => {
        child.once('error', reject);
        child.once('exit', (code) => (code === 0 ? resolve((JSON.parse(outs[i]!.text.slice('ready\n'.length)) as { slots: number[] }).slots) : reject(new Error(`pacer exited with ${code}`))));
      }),
  );
  await Promise.all(ready);
  const startAt = Date.now() + 200;
  for (const child of children) child.stdin.end(`${startAt}\n`);
  await during?.(startAt);
  return { startAt, runs: await Promise.all(done) };
}

describe('createRedisRateLimitStore across three processes', () => {
  it('the slots handed to three processes add up to the configured rate (within 5%), each process getting its share', async () => {
    const perSecond = 40;
    const runMs = 3_000;
    const key = `rate-${process.pid}-${Date.now()}`;
    const { startAt, runs } = await pacers({ KEY: key, PER_SECOND: perSecond, BURST: 1, RUN_MS: runMs });
    const total = runs.reduce((sum, slots) => sum + slots.length, 0);
    // The slots from the first one handed out to the end of the run, one every 25 ms.
    const first = Math.min(...runs.flat());
    expect(startAt + runMs - first).toBeGreaterThan(runMs / 2);
    const expected = Math.floor(((startAt + runMs - first) * perSecond) / 1000) + 1;
    expect(Math.abs(total - expected) / expected).toBeLessThanOrEqual(0.05);
    for (const slots of runs) expect(slots.length).toBeGreaterThanOrEqual(expected / 3 / 2);
  }, 30_000);

  it('one pause (a 429 seen by a fourth client) holds all three processes until its end; each resumes after it', async () => {
    const perSecond = 20;
    const runMs = 4_000;
    const key = `pause-${process.pid}-${Date.now()}`;
    let pausedAt = 0;
    let until = 0;
    const { runs } = await pacers({ KEY: key, PER_SECOND: perSecond, BURST: 1, RUN_MS: runMs }, async (startAt) => {
      await new Promise((resolve) => setTimeout(resolve, startAt + 1_000 - Date.now()));
      pausedAt = Date.now();
      until = pausedAt + 1_500;
      await createRedisRateLimitStore({ client: redis, prefix: 'pacing:' }).pause(key, until);
    });
    for (const slots of runs) {
      // Slots reserved before the pause lie at most three intervals ahead of it; none after that lies inside it.
      expect(slots.filter((at) => at > pausedAt + 3 * (1000 / perSecond) + 50 && at < until - 5)).toEqual([]);
      expect(slots.some((at) => at < pausedAt)).toBe(true);
      expect(slots.some((at) => at >= until - 5)).toBe(true);
    }
  }, 30_000);
});

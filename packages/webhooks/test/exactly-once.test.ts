// Callbacks are processed exactly once by users of verifyCallback / handleCallback themselves:
// a delivery is in progress while the handler runs, done only when it succeeded, released when
// it failed, and its in-progress mark expires after a lease.
import { createMemoryReplayStore, type ReplayStore } from '@x/auth';
import { describe, expect, it } from 'vitest';
import callbackVector from '../../auth/vectors/callback.json' with { type: 'json' };
import { assertCallback, callbackAnswer, handleCallback, verifyCallback, WebhookError, type CallbackPayload } from '../src/index.js';
import { createSignedCallback } from '../src/testing.js';

const credentials = { customerId: callbackVector.customerId, apiKey: callbackVector.apiKey };
let n = 0;
const delivery = () =>
  createSignedCallback(
    { reference_id: (++n).toString(16).padStart(32, '0'), sub_resource: 'sms', errors: [], status: { code: 200, description: 'Delivered to handset', updated_on: '2026-01-01T00:00:00.000000Z' } } as CallbackPayload,
    credentials,
  );

describe('verifyCallback with a replay store: begin / complete / abandon', () => {
  it('a failed handler (abandon) lets the next delivery through; after complete it is a duplicate', async () => {
    const options = { ...credentials, replayStore: createMemoryReplayStore() };
    const signed = delivery();
    const first = await verifyCallback(signed, options);
    if (!first.ok) throw new Error(first.reason);
    await first.abandon(); // the handler failed (its database was down)
    const retry = await verifyCallback(signed, options);
    if (!retry.ok) throw new Error(`the retry was not processed: ${retry.reason}`);
    await retry.complete();
    expect(await verifyCallback(signed, options)).toMatchObject({ ok: false, reason: 'duplicate' });
  });

  it('a concurrent copy while one is in progress is in_progress, answered 503 with Retry-After (never 2xx)', async () => {
    const options = { ...credentials, replayStore: createMemoryReplayStore(), leaseMs: 20_000 };
    const signed = delivery();
    const first = await verifyCallback(signed, options);
    const copy = await verifyCallback(signed, options);
    expect(first.ok).toBe(true);
    expect(copy).toMatchObject({ ok: false, reason: 'in_progress' });
    expect(callbackAnswer('in_progress', options)).toEqual({ status: 503, headers: { 'retry-after': '20' }, body: { error: 'in_progress', message: expect.stringMatching(/retry/i) } });
    expect(callbackAnswer('duplicate').status).toBe(200);
  });

  it('a delivery whose handler never settles is processed again once its lease expires (injectable clock)', async () => {
    let now = 0;
    const options = { ...credentials, replayStore: createMemoryReplayStore({ now: () => now }), leaseMs: 30_000 };
    const signed = delivery();
    expect((await verifyCallback(signed, options)).ok).toBe(true); // the process dies here
    now = 29_999;
    expect(await verifyCallback(signed, options)).toMatchObject({ reason: 'in_progress' });
    now = 30_000;
    expect((await verifyCallback(signed, options)).ok).toBe(true);
  });

  it('complete and abandon act once: the first wins', async () => {
    const options = { ...credentials, replayStore: createMemoryReplayStore() };
    const signed = delivery();
    const first = await verifyCallback(signed, options);
    if (!first.ok) throw new Error(first.reason);
    await first.complete();
    await first.abandon();
    expect(await verifyCallback(signed, options)).toMatchObject({ reason: 'duplicate' });
  });

  it('a store that can only claim is refused with a typed error saying what to use', async () => {
    const claimOnly: ReplayStore = { claim: () => true };
    const error = await verifyCallback(delivery(), { ...credentials, replayStore: claimOnly as never }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebhookError);
    expect(error).toMatchObject({ code: 'invalid_store' });
    expect((error as Error).message).toMatch(/begin.*complete.*abandon/);
  });

  it('assertCallback with a store is refused: it could not report the outcome', async () => {
    await expect(assertCallback(delivery(), { ...credentials, replayStore: createMemoryReplayStore() })).rejects.toMatchObject({ code: 'outcome_required' });
  });

  it('without a store, complete and abandon are harmless no-ops', async () => {
    const result = await verifyCallback(delivery(), credentials);
    if (!result.ok) throw new Error(result.reason);
    await expect(result.complete()).resolves.toBe(true); // no lease to lose
    await expect(result.abandon()).resolves.toBeUndefined();
  });
});

describe('handleCallback(input, options, handler)', () => {
  it('a handler that throws once releases the delivery; the retry runs it; then it is a duplicate', async () => {
    const options = { ...credentials, replayStore: createMemoryReplayStore() };
    const signed = delivery();
    const seen: string[] = [];
    let fail = true;
    const handler = async (payload: CallbackPayload) => {
      if (fail) {
        fail = false;
        throw new Error('database down');
      }
      seen.push(payload.reference_id);
      return 'stored';
    };
    await expect(handleCallback(signed, options, handler)).rejects.toThrow('database down');
    expect(await handleCallback(signed, options, handler)).toMatchObject({ ok: true, value: 'stored' });
    const again = await handleCallback(signed, options, handler);
    expect(again).toMatchObject({ ok: false, reason: 'duplicate', answer: { status: 200, body: { duplicate: true } } });
    expect(seen).toHaveLength(1);
  });

  it('a copy arriving while the handler runs gets the 503 answer, and the handler runs once', async () => {
    const options = { ...credentials, replayStore: createMemoryReplayStore() };
    const signed = delivery();
    let release!: () => void;
    let entered!: () => void;
    const running = new Promise<void>((resolve) => (entered = resolve));
    let runs = 0;
    const handler = () => {
      runs++;
      entered();
      return new Promise<void>((resolve) => (release = resolve));
    };
    const first = handleCallback(signed, options, handler);
    await running;
    const copy = await handleCallback(signed, options, handler);
    expect(copy).toMatchObject({ ok: false, reason: 'in_progress', answer: { status: 503 } });
    release();
    expect(await first).toMatchObject({ ok: true });
    expect(runs).toBe(1);
  });

  it('a bad signature never reaches the handler', async () => {
    let called = false;
    const signed = delivery();
    const result = await handleCallback({ ...signed, body: signed.body.replace('200', '201') }, credentials, () => {
      called = true;
    });
    expect(result).toMatchObject({ ok: false, reason: 'signature_mismatch', answer: { status: 401 } });
    expect(called).toBe(false);
  });
});

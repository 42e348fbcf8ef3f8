// A handler that outlives its lease while a copy takes the delivery over: its success is still
// recorded (done wins), and the loss is reported to `onLeaseLost` by handleCallback and by the
// adapters' settleWith, never ignored.
import { createMemoryReplayStore } from '@x/auth';
import { describe, expect, it } from 'vitest';
import callbackVector from '../../auth/vectors/callback.json' with { type: 'json' };
import { handleCallback, verifyCallback, type CallbackPayload, type LeaseLost } from '../src/index.js';
import { settleWith } from '../src/adapter-entry.js';
import { createSignedCallback } from '../src/testing.js';

const credentials = { customerId: callbackVector.customerId, apiKey: callbackVector.apiKey };
let n = 0;
const delivery = () => {
  const payload: CallbackPayload = { reference_id: `1ea5e${(++n).toString(16).padStart(27, '0')}`, sub_resource: 'sms', errors: [], status: { code: 200, description: 'Delivered to handset', updated_on: '2026-01-01T00:00:00Z' } };
  return { ...createSignedCallback(payload, credentials), payload };
};

/** Options over a memory store with a clock the test moves, and the losses reported. */
function setup() {
  const clock = { now: 0 };
  const lost: LeaseLost[] = [];
  const options = { ...credentials, replayStore: createMemoryReplayStore({ now: () => clock.now }), leaseMs: 1_000, onLeaseLost: (l: LeaseLost) => void lost.push(l) };
  return { clock, lost, options };
}

describe('a lost lease is reported', () => {
  it('handleCallback: the handler outlived its lease and a copy took over; the loss goes to onLeaseLost, the success is recorded', async () => {
    const { clock, lost, options } = setup();
    const signed = delivery();
    let copy: Awaited<ReturnType<typeof verifyCallback>> | undefined;
    const handled = await handleCallback(signed, options, async () => {
      clock.now = 1_000; // the lease ran out while the handler worked
      copy = await verifyCallback(signed, options); // the service's retry is begun elsewhere
      return 'stored';
    });
    expect(copy?.ok).toBe(true);
    expect(handled).toMatchObject({ ok: true, value: 'stored' });
    expect(lost).toEqual([{ reason: 'lease_lost', identity: expect.any(String), payload: expect.objectContaining({ reference_id: signed.payload.reference_id }) }]);
    expect(await verifyCallback(signed, options)).toMatchObject({ ok: false, reason: 'duplicate' });
  });

  it('handleCallback: a handler within its lease reports nothing', async () => {
    const { lost, options } = setup();
    expect(await handleCallback(delivery(), options, () => 'stored')).toMatchObject({ ok: true });
    expect(lost).toEqual([]);
  });

  it('settleWith (the adapters): a success after the lease was taken over goes to onLeaseLost', async () => {
    const { clock, lost, options } = setup();
    const signed = delivery();
    const callback = await verifyCallback(signed, options);
    if (!callback.ok) throw new Error(callback.reason);
    clock.now = 1_000;
    expect((await verifyCallback(signed, options)).ok).toBe(true); // the copy took over
    await settleWith(callback, options)(true); // resolves once settled; never rejects
    expect(lost).toMatchObject([{ reason: 'lease_lost', identity: callback.identity }]);
  });

  it('verifyCallback: complete() resolves false when the lease was lost, true when it was held', async () => {
    const { clock, options } = setup();
    const held = await verifyCallback(delivery(), options);
    if (!held.ok) throw new Error(held.reason);
    expect(await held.complete()).toBe(true);
    const signed = delivery();
    const late = await verifyCallback(signed, options);
    if (!late.ok) throw new Error(late.reason);
    clock.now += 1_000;
    await verifyCallback(signed, options);
    expect(await late.complete()).toBe(false);
  });
});

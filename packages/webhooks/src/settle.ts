import { reportStoreError } from './delivery.js';
import type { CallbackOptions, LeaseLost, VerifiedCallback } from './verify.js';

// How handleCallback and the adapters settle a delivery once the handler's outcome is known.

const reportLeaseLost = (lost: LeaseLost) => {
  console.warn(
    `@x/webhooks: a callback (identity ${lost.identity}) was handled after its lease ran out while another delivery of it had begun; ` +
      'its success is recorded, but the other copy may be processing it too. Make the handler idempotent or raise leaseMs.',
  );
};

/**
 * Completes (ok) or abandons the delivery; a store failure goes to `onStoreError`, a lost lease to
 * `onLeaseLost`. Never rejects: the answer is already decided.
 */
export async function settleDelivery(callback: VerifiedCallback, ok: boolean, options: Pick<CallbackOptions, 'onStoreError' | 'onLeaseLost'>): Promise<void> {
  try {
    if (!ok) return await callback.abandon();
    if (await callback.complete()) return;
    (options.onLeaseLost ?? reportLeaseLost)({ reason: 'lease_lost', identity: callback.identity, payload: callback.payload });
  } catch (error) {
    (options.onStoreError ?? reportStoreError)(error);
  }
}

import { reportStoreError } from './delivery.js';
import type { CallbackOptions, LeaseLost, VerifiedCallback } from './verify.js';

// How handleCallback and the adapters settle a delivery once the handler's outcome is known.

const reportLeaseLost = (lost: LeaseLost) => console.warn('@x/webhooks: lease lost (another delivery took over; raise leaseMs)', lost.identity);

/**
 * Completes (ok) or abandons the delivery; a store failure goes to `onStoreError`, a lost lease to
 * `onLeaseLost`. Never rejects: the answer is already decided.
 */
export const settleDelivery = (callback: VerifiedCallback, ok: boolean, options: Pick<CallbackOptions, 'onStoreError' | 'onLeaseLost'>): Promise<void> =>
  (ok ? callback.complete() : callback.abandon().then(() => true)).then(
    (held) => void (held || (options.onLeaseLost ?? reportLeaseLost)({ reason: 'lease_lost', identity: callback.identity, payload: callback.payload })),
    options.onStoreError ?? reportStoreError,
  );

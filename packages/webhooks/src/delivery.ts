import type { DeliveryStore } from '@x/auth';
import { WebhookError } from './errors.js';

/** The two ways to settle a delivery; only the first call acts. */
export interface Settlement {
  /** Records the success; false when another delivery had taken over the lease meanwhile (the success is recorded all the same). */
  complete(): Promise<boolean>;
  abandon(): Promise<void>;
}

/** Without a store there is nothing to record, and no lease to lose. */
export const UNTRACKED: Settlement = { complete: async () => true, abandon: async () => {} };

/** The store, when it can hold deliveries (begin / complete / abandon); else a typed error. */
export function checkStore(store: DeliveryStore): DeliveryStore {
  if (typeof store.begin !== 'function' || typeof store.complete !== 'function' || typeof store.abandon !== 'function') {
    throw new WebhookError(
      'invalid_store',
      'replayStore needs begin, complete and abandon (claim() alone loses the update when the handler fails): ' +
        'use createMemoryReplayStore() (@x/auth) or createRedisReplayStore() (@x/redis).',
    );
  }
  return store;
}

/** Begins a delivery: `done`, `in_progress`, or the settlement of the delivery now held. */
export async function beginDelivery(store: DeliveryStore, key: string, leaseMs: number, ttlMs: number): Promise<'done' | 'in_progress' | Settlement> {
  const begun = await store.begin(key, leaseMs);
  if (begun.state !== 'started') return begun.state;
  let settled = false;
  const first = () => !settled && (settled = true);
  return {
    // A second settlement does nothing and has lost nothing.
    complete: async () => !first() || (await store.complete(key, begun.token, ttlMs)) !== false,
    abandon: async () => void (first() && (await store.abandon(key, begun.token))),
  };
}

/** Where a store failure after the handler goes when the caller did not say. */
export const reportStoreError = (error: unknown) => {
  console.error('@x/webhooks: a callback outcome could not be recorded in the replay store; it is processed again after its lease.', error);
};

import type { DeliveryStore } from '@x/auth';
import { WebhookError } from './errors.js';

/** The two ways to settle a delivery; only the first call acts. */
export interface Settlement {
  complete(): Promise<void>;
  abandon(): Promise<void>;
}

const nothing = async () => {};
/** Without a store there is nothing to record. */
export const UNTRACKED: Settlement = { complete: nothing, abandon: nothing };

/** The store, when it can hold deliveries (begin / complete / abandon); else a typed error. */
export function checkStore(store: DeliveryStore): DeliveryStore {
  if (typeof store.begin !== 'function' || typeof store.complete !== 'function' || typeof store.abandon !== 'function') {
    throw new WebhookError(
      'invalid_store',
      'replayStore must implement begin, complete and abandon, so that a callback counts as processed only when your handler succeeded ' +
        '(a store with claim() alone would lose the update when the handler fails). createMemoryReplayStore() from @x/auth and ' +
        'createRedisReplayStore() from @x/redis do.',
    );
  }
  return store;
}

/** Begins a delivery: `done`, `in_progress`, or the settlement of the delivery now held. */
export async function beginDelivery(store: DeliveryStore, key: string, leaseMs: number, ttlMs: number): Promise<'done' | 'in_progress' | Settlement> {
  const begun = await store.begin(key, leaseMs);
  if (begun.state !== 'started') return begun.state;
  let settled = false;
  const once = (act: () => unknown) => async () => {
    if (settled) return;
    settled = true;
    await act();
  };
  return {
    complete: once(() => store.complete(key, begun.token, ttlMs)),
    abandon: once(() => store.abandon(key, begun.token)),
  };
}

/** Where a store failure after the handler goes when the caller did not say. */
export const reportStoreError = (error: unknown) => {
  console.error('@x/webhooks: the outcome of a callback delivery could not be recorded in the replay store; it will be processed again after its lease.', error);
};

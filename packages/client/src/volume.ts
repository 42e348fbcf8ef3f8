/**
 * Sending at volume: `sendMany` (personalised fan-out, resumable, paced), one rate for every
 * process (`RateLimitStore`), spend caps in SMS parts (`SpendStore`, `createSpendCap`). Memory
 * stores here; `@x/redis` implements both contracts for several processes.
 *
 * @packageDocumentation
 * @module @x/client/volume
 */
export { createMemoryRateLimitStore } from './pacing.js';
export type { Rate, RateLimitStore, MemoryRateLimitStoreOptions } from './pacing.js';
export { createMemorySpendStore, createSpendCap, SpendCapError } from './spend.js';
export type { SpendBudget, SpendResult, SpendStore, MemorySpendStoreOptions, SpendRequest, Budget, SpendCapOptions, SpendCharge, SpendCap } from './spend.js';
export { sendMany } from './fanout.js';
export type { SendManyItem, SendManyOptions, SendManyResult, SendManyEvent, RefusedReason } from './fanout.js';

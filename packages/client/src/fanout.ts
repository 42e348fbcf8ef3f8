// sendMany: personalised SMS in, one result per item out, at most `concurrency` at once, paced by
// a rate limit store, charged to a spend cap, each item under its own idempotency key.
import type { Client } from './client.js';
import { ApiError, ClientError, ConfigurationError, NetworkError, RateLimitError, TimeoutError, ValidationError } from './errors.js';
import type { IdempotencyKeyState, IdempotencyScope } from './idempotency.js';
import { checkRate, createMemoryRateLimitStore, type Rate, type RateLimitStore } from './pacing.js';
import type { SendSmsParams, SmsResponse } from './products/messaging.js';
import { SpendCapError, type SpendCap } from './spend.js';
import { sleep } from './transport/signals.js';
import type { ApiResponse } from './types.js';

/** One personalised SMS of a fan-out. */
export interface SendManyItem {
  /** Stable id of the item within the run (a user id, an order id): with the run id, its idempotency key. 1 to 200 characters. */
  id: string;
  /** What to send, as `messaging.send` takes it. */
  params: SendSmsParams;
  /** The item's idempotency key, when you keep your own. Default: `${runId}:${id}`. */
  idempotencyKey?: string | undefined;
  /** Tags for the spend cap's budgets (`per: (send) => send.tags.team`). */
  tags?: Readonly<Record<string, string>> | undefined;
}

/**
 * Why an item was refused; in every case nothing was sent by this run:
 *
 * - `spend_cap`: a budget of the spend cap would be passed (`error` is a `SpendCapError` naming it).
 * - `invalid`: the item or its parameters are not valid (`ValidationError`, or no `id`).
 * - `rejected`: the service refused it (a 4xx answer other than 429).
 * - `rate_limited`: the service still answered 429 after `maxRetries` pauses.
 * - `key_reused`: its idempotency key was used before for another message (`idempotency_mismatch`).
 * - `store`: a store (idempotency, rate, spend) failed before the send.
 * - `not_sent`: the request provably never left (refused connection, aborted before sending).
 */
export type RefusedReason = 'spend_cap' | 'invalid' | 'rejected' | 'rate_limited' | 'key_reused' | 'store' | 'not_sent';

/** The outcome of one item. */
export type SendManyResult =
  /** The service took it (in this run, or in an earlier run with the same key: then `response` is the stored answer). */
  | { status: 'sent'; id: string; idempotencyKey: string; referenceId: string; response: ApiResponse<SmsResponse> }
  /** Not sent, for `reason`. */
  | { status: 'refused'; id: string; idempotencyKey: string; reason: RefusedReason; error: unknown }
  /** May have been sent (its outcome is unknown, now or in an earlier run): never sent again under its key. Look it up by `referenceId` when there is one, or wait for its callback. */
  | { status: 'unknown'; id: string; idempotencyKey: string; referenceId: string | undefined; error: unknown };

/** Progress of a run, as events. */
export type SendManyEvent =
  /** After each item: the counts so far. */
  | { type: 'progress'; done: number; sent: number; refused: number; unknown: number; inFlight: number }
  /** The service answered 429: every sender of the rate's key holds until `untilMs` (epoch milliseconds). */
  | { type: 'paused'; id: string; untilMs: number }
  /** An item is tried again (after a 429, or a request that provably never left). */
  | { type: 'retry'; id: string; attempt: number; error: unknown };

/** Options of {@link sendMany}. */
export interface SendManyOptions {
  /** Names the run: item keys are `${runId}:${id}`, so a restarted run with the same id never sends an item twice. 1 to 200 characters, no ":". */
  runId: string;
  /** Items sent at once. Default 4, at most 256. */
  concurrency?: number | undefined;
  /**
   * The pace: at most `perSecond` sends a second (`burst` at once, default 1), shared by every
   * sender using the same `store` and `key`. Default store: a memory one for this run; give
   * `createRedisRateLimitStore` of `@x/redis` to share the rate between processes. A 429 with
   * Retry-After pauses every sender of the key (`store.pause`).
   */
  rate?: (Partial<Rate> & { perSecond: number; store?: RateLimitStore | undefined; key?: string | undefined }) | undefined;
  /** Charges every item to these budgets before its request (`createSpendCap`); an item that would pass one is refused (`spend_cap`). */
  spend?: SpendCap | undefined;
  /**
   * The client's idempotency (what `createIdempotency` returned) and the account: items a run
   * already sent (or may have) are then not charged or paced again. Required with `spend`, so a
   * restarted run neither counts an item twice nor refuses one that already went out.
   */
  resume?: { idempotency: { inspect(key: string, scope: IdempotencyScope): Promise<IdempotencyKeyState | undefined> }; customerId: string } | undefined;
  /** Times an item is tried again after a 429 or a request that provably never left. Default 5. */
  maxRetries?: number | undefined;
  /** Stops the run: no item is started after it; waits end; requests in flight are aborted (their outcome may be unknown). */
  signal?: AbortSignal | undefined;
  /** Progress, pauses and retries. */
  onEvent?: ((event: SendManyEvent) => void) | undefined;
}

const OPERATION = 'POST /v1/messaging';
const PAUSE_WITHOUT_RETRY_AFTER_MS = 1_000;

function whole(value: unknown, name: string, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) throw new ConfigurationError(`sendMany: ${name} must be a whole number from ${min} to ${max}, got ${String(value)}.`);
  return value;
}

/** Why a failed item is not a `sent`: refused (nothing sent) or unknown (may have gone out). */
function outcomeOf(id: string, idempotencyKey: string, error: unknown, retriesLeft: boolean): SendManyResult {
  const refused = (reason: RefusedReason): SendManyResult => ({ status: 'refused', id, idempotencyKey, reason, error });
  if (error instanceof SpendCapError) return refused('spend_cap');
  if (error instanceof RateLimitError && !retriesLeft) return refused('rate_limited');
  if (error instanceof ValidationError) return refused('invalid');
  if (error instanceof ClientError) {
    const code: string = error.code;
    if (code === 'idempotency_mismatch') return refused('key_reused');
    if (code === 'idempotency_store') return refused('store');
    if (code === 'idempotency_unknown' || code === 'idempotency_in_progress') return { status: 'unknown', id, idempotencyKey, referenceId: (error as { referenceId?: string }).referenceId, error };
    if ((error as { sent?: unknown }).sent === false) return refused('not_sent');
    if (error instanceof ApiError && error.code !== 'invalid_response' && error.status < 500) return refused('rejected');
    if (error.code === 'redirect' && (error as { followed?: boolean }).followed === false) return refused('rejected');
  }
  const referenceId = error instanceof ApiError ? error.referenceId : undefined;
  return { status: 'unknown', id, idempotencyKey, referenceId, error };
}

/** An error of a store of ours (rate, spend) before the send: nothing sent. */
class StoreFailure {
  constructor(readonly cause: unknown) {}
}

/**
 * Sends personalised SMS at volume: items in (an iterable or async iterable, read as the run goes),
 * one result per item out, as each finishes (`sent` with its reference id, `refused` with a reason,
 * `unknown` when it may have been sent).
 *
 * - Each item is sent with an idempotency key (`${runId}:${id}`, or its own) through the client's
 *   `idempotency` option (required): a run restarted after a crash with the same `runId` answers
 *   what was sent from the store and never sends an item that may have gone out.
 * - At most `concurrency` items at once, paced by `rate` (shared across processes with a Redis
 *   store); a 429 pauses every sender of the rate until its Retry-After, then the item is tried
 *   again (it was not sent).
 * - With `spend`, each item is charged before its request; one that would pass a budget is
 *   refused with the `SpendCapError` naming it.
 * - Misuse (no idempotency on the client, a bad option) throws a `ConfigurationError` and stops the run.
 *
 * @example
 * ```ts
 * import { createClient } from '@x/client';
 * import { createIdempotency } from '@x/client/idempotency';
 * import { sendMany } from '@x/client/volume';
 *
 * const client = createClient({ customerId, apiKey, idempotency: createIdempotency() });
 * const users = [{ id: 'u1', name: 'Ann', phone: '15555551234' }]; // from your database
 * const items = users.map((u) => ({ id: u.id, params: { phoneNumber: u.phone, message: `Hi ${u.name}, your order shipped`, messageType: 'ARN' as const } }));
 * for await (const result of sendMany(client, items, { runId: 'shipping-2024-06-01', concurrency: 8, rate: { perSecond: 20 } })) {
 *   if (result.status !== 'sent') log(result.id, result.status);
 * }
 * ```
 */
export async function* sendMany(client: Pick<Client, 'messaging'>, items: Iterable<SendManyItem> | AsyncIterable<SendManyItem>, options: SendManyOptions): AsyncGenerator<SendManyResult, void, undefined> {
  if (!client?.messaging || typeof client.messaging.send !== 'function') throw new ConfigurationError('sendMany(client, items, options): client must be a client of createClient.');
  if (!options || typeof options !== 'object') throw new ConfigurationError('sendMany(client, items, options): options must be an object with runId.');
  const { runId, spend, resume, signal, onEvent } = options;
  if (typeof runId !== 'string' || runId.length === 0 || runId.length > 200 || runId.includes(':')) {
    // No ":" in a run id: `${runId}:${id}` then names one item of one run (run "a:b" item "c" and run "a" item "b:c" would share a key).
    throw new ConfigurationError('sendMany: runId must be a string of 1 to 200 characters without ":" that names the run (the same id when it is restarted).');
  }
  const concurrency = whole(options.concurrency, 'concurrency', 1, 256, 4);
  const maxRetries = whole(options.maxRetries, 'maxRetries', 0, 100, 5);
  if (spend !== undefined && typeof spend.charge !== 'function') throw new ConfigurationError('sendMany: spend must be a spend cap (createSpendCap).');
  if (spend && !resume) {
    throw new ConfigurationError(
      'sendMany: with spend, give resume: { idempotency, customerId } (the idempotency given to createClient): a restarted run would otherwise charge again, or refuse, items that already went out.',
    );
  }
  if (resume && (typeof resume.idempotency?.inspect !== 'function' || typeof resume.customerId !== 'string')) {
    throw new ConfigurationError('sendMany: resume must be { idempotency, customerId }: what createIdempotency() returned (given to createClient) and the account it sends with.');
  }
  const given = options.rate;
  const rate = given ? checkRate({ perSecond: given.perSecond, burst: given.burst ?? 1 }, 'sendMany: rate') : undefined;
  const limiter = given?.store ?? createMemoryRateLimitStore();
  if (typeof limiter.acquire !== 'function' || typeof limiter.pause !== 'function') throw new ConfigurationError('sendMany: rate.store must be a rate limit store (acquire, pause).');
  const rateKey = given?.key ?? 'messaging';
  if (typeof rateKey !== 'string' || rateKey.length === 0) throw new ConfigurationError('sendMany: rate.key must be a non-empty string.');
  const iterator = Symbol.asyncIterator in items ? items[Symbol.asyncIterator]() : (items as Iterable<SendManyItem>)[Symbol.iterator]();
  if (typeof iterator?.next !== 'function') throw new ConfigurationError('sendMany: items must be an iterable or an async iterable of { id, params }.');

  // Ends the waits of this run when the caller stops reading or aborts (not the requests in flight).
  const stop = new AbortController();
  const onAbort = () => stop.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  const emit = (event: SendManyEvent) => {
    try {
      onEvent?.(event);
    } catch {
      // A listener's failure does not stop a run half-way.
    }
  };

  /** Holds until this item's slot: the shared store's answer. */
  const pace = async () => {
    let wait: number;
    try {
      // Without a rate, the store still holds the pauses a 429 asks for.
      wait = await limiter.acquire(rateKey, rate ?? { perSecond: 1_000_000, burst: 1_000_000 });
    } catch (error) {
      throw new StoreFailure(error);
    }
    if (wait > 0) await sleep(wait, stop.signal);
  };

  const one = async (item: SendManyItem): Promise<SendManyResult> => {
    const id = typeof item?.id === 'string' ? item.id : '';
    const key = item?.idempotencyKey ?? `${runId}:${id}`;
    if (!id || id.length > 200) return { status: 'refused', id, idempotencyKey: key, reason: 'invalid', error: new ValidationError('id', 'every item needs an id: a string of 1 to 200 characters, stable across runs.') };
    let attempt = 1;
    try {
      // An item an earlier run reserved and never sent is charged; one it sent, or may have, is not.
      let known = false;
      if (resume) {
        try {
          const state = await resume.idempotency.inspect(key, { customerId: resume.customerId, operation: OPERATION });
          known = state !== undefined && state.state !== 'reserved';
        } catch (error) {
          throw new StoreFailure(error);
        }
      }
      if (spend && !known) {
        try {
          await spend.charge({ phoneNumber: item.params?.phoneNumber, message: item.params?.message, tags: item.tags });
        } catch (error) {
          if (error instanceof SpendCapError || error instanceof ClientError) throw error;
          throw new StoreFailure(error);
        }
      }
      for (; ; attempt++) {
        if (!known) await pace();
        try {
          const response = await client.messaging.send(item.params, { idempotencyKey: key, retry: false, signal });
          return { status: 'sent', id, idempotencyKey: key, referenceId: response.data.reference_id, response };
        } catch (error) {
          if (attempt > maxRetries) throw error;
          if (error instanceof RateLimitError) {
            const untilMs = Date.now() + (error.retryAfterMs ?? PAUSE_WITHOUT_RETRY_AFTER_MS);
            try {
              await limiter.pause(rateKey, untilMs);
            } catch (failure) {
              throw new StoreFailure(failure);
            }
            emit({ type: 'paused', id, untilMs });
          } else if ((error instanceof NetworkError || error instanceof TimeoutError) && error.sent === false) {
            await sleep(Math.min(5_000, 250 * 2 ** (attempt - 1)), stop.signal);
          } else {
            throw error;
          }
          emit({ type: 'retry', id, attempt: attempt + 1, error });
          known = false;
        }
      }
    } catch (error) {
      if (error instanceof ConfigurationError) throw error;
      if (error instanceof StoreFailure) return { status: 'refused', id, idempotencyKey: key, reason: 'store', error: error.cause };
      // A wait ended by the run's stop: nothing was sent.
      if (error instanceof ClientError && error.code === 'aborted' && stop.signal.aborted && !(error as { sent?: unknown }).sent) {
        return { status: 'refused', id, idempotencyKey: key, reason: 'not_sent', error };
      }
      return outcomeOf(id, key, error, attempt <= maxRetries);
    }
  };

  const running = new Map<number, Promise<[number, SendManyResult]>>();
  const counts = { done: 0, sent: 0, refused: 0, unknown: 0 };
  let exhausted = false;
  let started = 0;
  try {
    for (;;) {
      while (!exhausted && running.size < concurrency && !stop.signal.aborted) {
        const step = await iterator.next();
        if (step.done) {
          exhausted = true;
          break;
        }
        const n = started++;
        running.set(
          n,
          one(step.value).then((result) => [n, result]),
        );
      }
      if (running.size === 0) return;
      const [n, result] = await Promise.race(running.values());
      running.delete(n);
      counts.done++;
      counts[result.status]++;
      emit({ type: 'progress', ...counts, inFlight: running.size });
      yield result;
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    // Stopped early (break, throw, abort): no new item; waits end; what is in flight settles before the run returns.
    stop.abort();
    if (!exhausted) await iterator.return?.();
    await Promise.allSettled(running.values());
  }
}

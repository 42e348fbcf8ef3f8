/**
 * Sends that happen at most once per key, across calls and processes: `createIdempotency`, the
 * client's `idempotency` option (memory by default, or any delivery store such as `@x/redis`).
 *
 * @packageDocumentation
 * @module @x/client/idempotency
 */
// The whole logic of `idempotencyKey` lives here, in what the caller passes to createClient: the
// client itself only hands a send with a key to `run` (routing.ts). The store is the delivery
// store contract of @x/auth (begin / complete / abandon), the one the callbacks use; `complete`
// records the settled outcome as its value.
import { callbackSignature, createMemoryReplayStore, type DeliveryStore } from '@x/auth';
import { ApiError, BRAND, ClientError, ConfigurationError, RedirectError, ValidationError, type IdempotencyErrorCode, type IdempotencyFailure } from './errors.js';
import type { IdempotencyHook, IdempotentSend } from './routing.js';
import { maskSecretsIn } from './secrets.js';
import { configuration, count } from './transport/request.js';
import { sleep } from './transport/signals.js';
import type { ApiResponse } from './types.js';

export type { IdempotencyErrorCode } from './errors.js';
export type { IdempotencyHook, IdempotentSend } from './routing.js';

/** How long a key is kept by default: 24 hours from its send. */
export const DEFAULT_IDEMPOTENCY_TTL_MS = 86_400_000;
/** How long a call waits by default for another call with the same key to finish: 10 seconds. */
export const DEFAULT_IDEMPOTENCY_WAIT_MS = 10_000;

export interface IdempotencyOptions {
  /**
   * Where keys are kept: any delivery store of `@x/auth`'s contract that keeps the value given to
   * `complete` (`createRedisReplayStore` of `@x/redis` to share keys between processes). Default:
   * `createMemoryReplayStore()` of `@x/auth`, for one process (at most 100 000 keys; beyond, the
   * oldest is forgotten).
   */
  store?: DeliveryStore | undefined;
  /**
   * How long a key is held, in milliseconds from its send, whatever its outcome (an answer, an
   * unknown outcome, a process that died mid-send). Default 24 hours. After it, the key sends again.
   */
  ttlMs?: number | undefined;
  /**
   * How long a call waits for another call with the same key to finish before it throws
   * `IdempotencyError('idempotency_in_progress')`, in milliseconds. Default 10 000; 0 throws at once.
   */
  waitMs?: number | undefined;
  /**
   * Where a store failure after the send goes (the send's outcome stands; the key stays held until
   * its lease, `ttlMs`, ends). Default: `console.error`.
   */
  onStoreError?: ((error: unknown) => void) | undefined;
}

/**
 * A send with an `idempotencyKey` that is not sent (again). `sent` says whether it may have gone
 * out: `'unknown'` for `idempotency_unknown` (its outcome was never known: look it up by
 * `referenceId` when there is one, or wait for its callback) and `idempotency_in_progress`; false
 * for `idempotency_store` and `idempotency_mismatch` (this call sent nothing). `cause` is the error
 * of the send or of the store.
 */
export class IdempotencyError extends ClientError implements IdempotencyFailure {
  static override readonly [BRAND]: string = '@x/client/IdempotencyError';
  override name = 'IdempotencyError';
  declare readonly code: IdempotencyErrorCode;
  declare readonly key: string;
  declare readonly sent: false | 'unknown';
  declare readonly referenceId: string | undefined;
  constructor(code: IdempotencyErrorCode, key: string, message: string, init: { referenceId?: string | undefined; cause?: unknown } = {}) {
    super(code, message, { cause: init.cause });
    this.key = key;
    this.sent = code === 'idempotency_store' || code === 'idempotency_mismatch' ? false : 'unknown';
    this.referenceId = init.referenceId;
  }
}

/** A settled key: the fingerprint of its parameters, and the answer (`r`) or an unknown outcome (`u`, its reference id or null). */
type Stored = { f: string } & ({ r: { data: unknown; status: number; headers: Array<[string, string]> } } | { u: string | null });

/** Errors that prove the request was not processed: released, so that the same key can send again. */
function notSent(error: unknown): boolean {
  if (!(error instanceof ClientError)) return false;
  if ((error as { sent?: unknown }).sent === false || error.code === 'validation_error' || error.code === 'configuration_error') return true;
  // The service refused it (4xx, 429 included) or redirected it: nothing was processed.
  if (error instanceof ApiError) return error.code !== 'invalid_response' && error.status < 500;
  return error instanceof RedirectError && !error.followed;
}

/**
 * A canonical text of a value: object keys sorted, undefined members left out, as JSON. Two
 * spellings of the same parameters (another key order) give the same text.
 */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : canonical(item))).join(',')}]`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  const members: string[] = [];
  for (const name of Object.keys(value).sort()) {
    const member = (value as Record<string, unknown>)[name];
    if (member !== undefined) members.push(`${JSON.stringify(name)}:${canonical(member)}`);
  }
  return `{${members.join(',')}}`;
}

/** What the fingerprint key is derived with: this label under the account's API key. */
const FINGERPRINT_LABEL = 'x-sdk idempotency fingerprint v1';

/**
 * The fingerprint of a send's parameters, all of them (verification codes and security factors
 * included): HMAC-SHA256 over their canonical text, keyed by a key derived from the API key (an
 * HMAC of a fixed label, so that no fingerprint is a signature the service or a callback would
 * accept). The store never sees the parameters, and a 6-digit code cannot be found from the
 * fingerprint without the API key.
 */
function fingerprintOf(apiKey: string, request: IdempotentSend['request']): string {
  const key = callbackSignature(FINGERPRINT_LABEL, apiKey);
  return callbackSignature(canonical([request.method, request.path, request.query, request.form, request.json]), key);
}

const shown = (key: string) => JSON.stringify(key.length > 64 ? `${key.slice(0, 64)}...` : key);

const unknownOutcome = (key: string, referenceId: string | undefined, cause?: unknown) =>
  new IdempotencyError(
    'idempotency_unknown',
    key,
    `The send with idempotencyKey ${shown(key)} may have gone out: its outcome is unknown${referenceId ? ` (reference id ${referenceId})` : ''}. ` +
      `It is not sent again with this key: look its status up${referenceId ? ' by that reference id' : ''}, or wait for its callback. The key stays held until it expires (ttlMs).`,
    { referenceId, cause },
  );

const reportStoreError = (error: unknown) => {
  console.error('@x/client/idempotency: the outcome of a send could not be recorded in the store; its key stays held until it expires (ttlMs).', error);
};

/**
 * The client's `idempotency` option: a send given an `idempotencyKey` goes out at most once per
 * key (scoped to the account and the operation), across calls and, with a shared store, processes.
 *
 * - The first call with a key sends; a call while it runs waits for its result (up to `waitMs`,
 *   then `IdempotencyError('idempotency_in_progress')`); a later call gets the stored answer
 *   without a request (its data with verification codes masked).
 * - A failure that proves nothing was sent (`sent: false`, a refusal by the service, a
 *   `ValidationError`) releases the key: the same key can send again.
 * - Any other failure (`sent: 'unknown'`, a 5xx) keeps the key held and throws
 *   `IdempotencyError('idempotency_unknown')`, with the `referenceId` to look up when known;
 *   later calls with the key get the same error, never a second send.
 * - A store that fails before the send: `IdempotencyError('idempotency_store')`, nothing sent.
 *
 * A key reused with other parameters (any of them, verification codes included) throws
 * `IdempotencyError('idempotency_mismatch')` and sends nothing. Keys expire `ttlMs` after their send.
 *
 * @example
 * ```ts
 * import { createClient } from '@x/client';
 * import { createIdempotency } from '@x/client/idempotency';
 *
 * const client = createClient({ customerId, apiKey, idempotency: createIdempotency() }); // or { store: createRedisReplayStore(...) }
 * const { data } = await client.messaging.send({ phoneNumber: '15555551234', message: 'Your order has shipped', messageType: 'ARN' }, { idempotencyKey: 'order-1042-shipped' });
 * log(data.reference_id); // the same answer for every call with this key, one SMS
 * ```
 */
export function createIdempotency(options: IdempotencyOptions = {}): IdempotencyHook {
  if (!options || typeof options !== 'object') throw new ConfigurationError('createIdempotency takes options: { store?, ttlMs?, waitMs? }.');
  const store = options.store ?? createMemoryReplayStore();
  if (typeof store.begin !== 'function' || typeof store.complete !== 'function' || typeof store.abandon !== 'function') {
    throw new ConfigurationError('createIdempotency: store must implement begin, complete and abandon (a delivery store: createMemoryReplayStore() of @x/auth, createRedisReplayStore() of @x/redis).');
  }
  const ttlMs = count(options.ttlMs, 'ttlMs', 1, DEFAULT_IDEMPOTENCY_TTL_MS, configuration);
  const waitMs = count(options.waitMs, 'waitMs', 0, DEFAULT_IDEMPOTENCY_WAIT_MS, configuration);
  const onStoreError = options.onStoreError ?? reportStoreError;

  /** A store call after the send: its failure is reported, the send's outcome stands. */
  const record = async (call: () => unknown) => {
    try {
      await call();
    } catch (error) {
      onStoreError(error);
    }
  };

  return {
    async run<T>({ key, customerId, apiKey, request }: IdempotentSend, send: () => Promise<ApiResponse<T>>): Promise<ApiResponse<T>> {
      if (typeof key !== 'string' || key.length === 0 || key.length > 255) {
        throw new ValidationError('idempotencyKey', `must be a string of 1 to 255 characters, such as the id of the job or order the message is for; got ${typeof key === 'string' ? `${key.length} characters` : typeof key}.`);
      }
      const operation = `${request.method} ${request.path}`;
      if (request.method !== 'POST') throw new ValidationError('idempotencyKey', `applies to sends (SMS, bulk SMS, calls, verification sends), not to ${operation}.`);
      const id = `idempotency:${customerId}:${operation}:${key}`;
      // What was asked, every parameter: a key reused for another message or code is refused.
      const fingerprint = fingerprintOf(apiKey, request);

      const answer = (value: string | undefined): ApiResponse<T> => {
        let stored: Stored;
        try {
          stored = JSON.parse(value!) as Stored;
        } catch (error) {
          throw new ConfigurationError('createIdempotency: the store said the key is done but gave back no result: it must return from begin() the value given to complete() (createMemoryReplayStore of @x/auth and createRedisReplayStore of @x/redis do).', { cause: error });
        }
        if (stored.f !== fingerprint) {
          throw new IdempotencyError(
            'idempotency_mismatch',
            key,
            `idempotencyKey ${shown(key)} was already used for ${operation} with other parameters (another message, recipient or code), so nothing was sent: use a new key for a new message or a new code; the same key only to repeat the same send.`,
          );
        }
        if ('u' in stored) throw unknownOutcome(key, stored.u ?? undefined);
        return { data: stored.r.data as T, status: stored.r.status, headers: new Headers(stored.r.headers) };
      };

      const deadline = Date.now() + waitMs;
      for (let pause = 25; ; pause = Math.min(pause * 2, 500)) {
        let begun;
        try {
          begun = await store.begin(id, ttlMs);
        } catch (error) {
          throw new IdempotencyError('idempotency_store', key, 'The idempotency store failed (see cause), so nothing was sent: a send it cannot record could go twice. Check the store (e.g. Redis), then retry with the same key.', { cause: error });
        }
        if (begun.state === 'done') return answer(begun.value);
        if (begun.state === 'started') {
          const { token } = begun;
          let response: ApiResponse<T>;
          try {
            response = await send();
          } catch (error) {
            if (notSent(error)) {
              await record(() => store.abandon(id, token));
              throw error;
            }
            const referenceId = error instanceof ApiError ? error.referenceId : undefined;
            await record(() => store.complete(id, token, ttlMs, JSON.stringify({ f: fingerprint, u: referenceId ?? null } satisfies Stored)));
            throw unknownOutcome(key, referenceId, error);
          }
          const headers: Array<[string, string]> = [];
          response.headers.forEach((value, name) => headers.push([name, value]));
          const result = { data: maskSecretsIn(response.data), status: response.status, headers };
          await record(() => store.complete(id, token, ttlMs, JSON.stringify({ f: fingerprint, r: result } satisfies Stored)));
          return response;
        }
        const left = deadline - Date.now();
        if (left <= 0) {
          throw new IdempotencyError(
            'idempotency_in_progress',
            key,
            `Another call with idempotencyKey ${shown(key)} has not finished after ${waitMs} ms (or its process stopped before recording its outcome): its send may have gone out, so it is not sent again. Retry later with the same key; the key is held until it expires (ttlMs).`,
          );
        }
        await sleep(Math.min(pause, left), undefined);
      }
    },
  };
}

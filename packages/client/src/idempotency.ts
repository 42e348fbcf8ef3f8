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
/** How long a holder's claim on a key lasts by default without renewal: 5 seconds. */
export const DEFAULT_IDEMPOTENCY_LEASE_MS = 5_000;

export interface IdempotencyOptions {
  /**
   * Where keys are kept: a delivery store of `@x/auth`'s contract with its two-phase methods
   * (`sending`, `inspect`, `release`): `createRedisReplayStore` of `@x/redis` to share keys
   * between processes. Default: `createMemoryReplayStore()` of `@x/auth`, for one process (at
   * most 100 000 keys; beyond, the one that expires first is forgotten).
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
   * How long a call's claim on a key lasts unless renewed, in milliseconds (default 5 000). A key
   * reserved by a call that never got to send (a store reply lost, a crash) is free again after
   * it; a call that is sending renews it every third of it, and once renewals stop (its process
   * died) the key answers `idempotency_unknown` at once instead of making callers wait. Each store
   * call before the send must answer within it, or nothing is sent (`idempotency_store`).
   */
  leaseMs?: number | undefined;
  /**
   * Where a store failure after the send goes (the send's outcome stands; the key stays held, and
   * answers `idempotency_unknown` once its lease ends). Default: `console.error`.
   */
  onStoreError?: ((error: unknown) => void) | undefined;
}

/**
 * Which key: the client scopes each key to the account and the operation (`'POST /v1/messaging'`,
 * as `IdempotencyError.operation` gives it).
 */
export interface IdempotencyScope {
  /** The account the key was sent with. */
  customerId: string;
  /** The operation, as `IdempotencyError.operation` spells it: `'POST /v1/messaging'`. */
  operation: string;
}

/**
 * A key as `inspect` sees it (times in epoch milliseconds, by the store's clock; never a secret):
 *
 * - `reserved`: a call took the key and has not sent yet; free again at `expiresAt` if it never does.
 * - `sending`: a call is sending; it renews its lease until `leaseUntil`.
 * - `stalled`: the call that was sending stopped renewing (its process died, or lost the store):
 *   the send may have gone out. Look it up; once sure it did not, `release` it.
 * - `answered`: the service answered (`status`, `referenceId`); later calls get that answer.
 * - `unknown`: the send failed in a way that may have let it out (`referenceId` when known).
 */
export interface IdempotencyKeyState {
  /** Where the key is: see above. */
  state: 'reserved' | 'sending' | 'stalled' | 'answered' | 'unknown';
  /** When the key is forgotten (after it, the same key sends again). */
  expiresAt: number;
  /** `sending`, `stalled`: when the send began. */
  sendingSince?: number | undefined;
  /** `sending`, `stalled`: until when its caller's lease runs. */
  leaseUntil?: number | undefined;
  /** `answered` (the HTTP status of the answer). */
  status?: number | undefined;
  /** `answered`, `unknown`: the reference id of the send, when the service gave one. */
  referenceId?: string | undefined;
}

/** What `createIdempotency` returns: the client's `idempotency` option, and the tools to reconcile a key. */
export interface Idempotency extends IdempotencyHook {
  /** The state of a key, or undefined when the store holds nothing for it (never used, or expired). */
  inspect(key: string, scope: IdempotencyScope): Promise<IdempotencyKeyState | undefined>;
  /**
   * Forgets a key, so that the same key sends again: for a `stalled`, `unknown` or `reserved` key
   * whose send you know did not go out (no transaction under its reference id, no callback).
   * Refused without `confirmNotSent: true`, and for a key being sent or answered. True when the
   * store held the key.
   */
  release(key: string, scope: IdempotencyScope & { confirmNotSent: true }): Promise<boolean>;
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
  /** The operation the key is scoped to (`'POST /v1/messaging'`): what `inspect` and `release` take. */
  declare readonly operation: string;
  declare readonly sent: false | 'unknown';
  declare readonly referenceId: string | undefined;
  constructor(code: IdempotencyErrorCode, key: string, message: string, init: { operation?: string | undefined; referenceId?: string | undefined; cause?: unknown } = {}) {
    super(code, message, { cause: init.cause });
    this.key = key;
    this.operation = init.operation ?? '';
    this.sent = code === 'idempotency_store' || code === 'idempotency_mismatch' ? false : 'unknown';
    this.referenceId = init.referenceId;
  }
}

/**
 * A settled key, kept small (thousands are held for a day): the fingerprint of its parameters,
 * and the answer (`d` data, `s` status, `h` headers) or an unknown outcome (`u`, its reference id or null).
 */
type Stored = { f: string } & ({ d: unknown; s: number; h: Array<[string, string]> } | { u: string | null });

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
const idOf = (key: string, { customerId, operation }: IdempotencyScope) => `idempotency:${customerId}:${operation}:${key}`;

const RELEASE = 'release(key, { customerId, operation, confirmNotSent: true })';

const unknownOutcome = (key: string, operation: string, referenceId: string | undefined, cause?: unknown) =>
  new IdempotencyError(
    'idempotency_unknown',
    key,
    `The send with idempotencyKey ${shown(key)} may have gone out: its outcome is unknown${referenceId ? ` (reference id ${referenceId})` : ''}. ` +
      `It is not sent again with this key: look its status up${referenceId ? ' by that reference id' : ''}, or wait for its callback; ` +
      `a new message needs a new key. Once you know it did not go out, ${RELEASE} frees the key.`,
    { operation, referenceId, cause },
  );

const stalled = (key: string, operation: string) =>
  new IdempotencyError(
    'idempotency_unknown',
    key,
    `The send with idempotencyKey ${shown(key)} may have gone out: the call that was sending it stopped (its process ended, or lost the store) before recording its outcome. ` +
      `It is not sent again with this key: look for the message (its callback, your records); a new message needs a new key. ` +
      `Once you know it did not go out, ${RELEASE} frees the key (inspect(key, { customerId, operation }) tells its state).`,
    { operation },
  );

const storeFailed = (key: string, operation: string, what: string, cause?: unknown) =>
  new IdempotencyError('idempotency_store', key, `The idempotency store ${what}, so nothing was sent: a send it cannot record could go twice. Check the store (e.g. Redis), then retry with the same key.`, { operation, cause });

const reportStoreError = (error: unknown) => {
  console.error('@x/client/idempotency: a store call after a send failed (see the error); the send stands, and its key answers idempotency_unknown once its lease ends.', error);
};

/** A store call that must answer within `ms`: past it, the call is given up (rejected). */
function within<T>(ms: number, call: () => T | Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the store did not answer within ${ms} ms`)), ms);
    Promise.resolve()
      .then(call)
      .then(resolve, reject)
      .finally(() => clearTimeout(timer));
  });
}

/**
 * The client's `idempotency` option: a send given an `idempotencyKey` goes out at most once per
 * key (scoped to the account and the operation), across calls and, with a shared store, processes.
 *
 * - The first call with a key reserves it (for `leaseMs`), marks it as being sent right before the
 *   request leaves, and renews that mark while it runs; a call while it runs waits for its result
 *   (up to `waitMs`, then `IdempotencyError('idempotency_in_progress')`); a later call gets the
 *   stored answer without a request (its data with verification codes masked).
 * - The same key with other parameters (any of them, verification codes included):
 *   `IdempotencyError('idempotency_mismatch')`, nothing sent: use a new key.
 * - A failure that proves nothing was sent (`sent: false`, a refusal by the service, a
 *   `ValidationError`) releases the key: the same key can send again.
 * - Any other failure (`sent: 'unknown'`, a 5xx) keeps the key held and throws
 *   `IdempotencyError('idempotency_unknown')`, with the `referenceId` to look up when known;
 *   later calls with the key get the same error, never a second send. So does a key whose sending
 *   call died (its lease not renewed): at once, not after `waitMs`.
 * - A store that fails (or does not answer within `leaseMs`) before the send:
 *   `IdempotencyError('idempotency_store')`, nothing sent. A reservation whose reply was lost is
 *   free again after `leaseMs`, so a retry with the same key then sends.
 *
 * `inspect(key, scope)` tells a key's state; `release(key, { ...scope, confirmNotSent: true })`
 * frees a key whose send you know did not go out. Keys expire `ttlMs` after their send.
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
export function createIdempotency(options: IdempotencyOptions = {}): Idempotency {
  if (!options || typeof options !== 'object') throw new ConfigurationError('createIdempotency takes options: { store?, ttlMs?, waitMs?, leaseMs? }.');
  const store = options.store ?? createMemoryReplayStore();
  const needed = ['begin', 'complete', 'abandon', 'sending', 'inspect', 'release'] as const;
  const missing = needed.filter((name) => typeof store[name] !== 'function');
  if (missing.length) {
    throw new ConfigurationError(
      `createIdempotency: the store has no ${missing.join(', ')}: it needs ${needed.join(', ')} (a delivery store with two-phase sends: createMemoryReplayStore() of @x/auth, createRedisReplayStore() of @x/redis). Without them a send could go out twice.`,
    );
  }
  const { sending, inspect: look, release: forget } = store as Required<DeliveryStore>;
  const ttlMs = count(options.ttlMs, 'ttlMs', 1, DEFAULT_IDEMPOTENCY_TTL_MS, configuration);
  const waitMs = count(options.waitMs, 'waitMs', 0, DEFAULT_IDEMPOTENCY_WAIT_MS, configuration);
  const leaseMs = count(options.leaseMs, 'leaseMs', 3, DEFAULT_IDEMPOTENCY_LEASE_MS, configuration);
  const onStoreError = options.onStoreError ?? reportStoreError;

  /** A store call after the send: bounded, its failure reported; the send's outcome stands. */
  const record = async (call: () => unknown) => {
    try {
      await within(leaseMs, call);
    } catch (error) {
      onStoreError(error);
    }
  };

  const parse = (value: string | undefined): Stored => {
    try {
      return JSON.parse(value!) as Stored;
    } catch (error) {
      throw new ConfigurationError('createIdempotency: the store said the key is done but gave back no result: it must return from begin() the value given to complete() (createMemoryReplayStore of @x/auth and createRedisReplayStore of @x/redis do).', { cause: error });
    }
  };

  const scopeOf = (scope: IdempotencyScope | undefined, method: string) => {
    if (!scope || typeof scope.customerId !== 'string' || typeof scope.operation !== 'string') {
      throw new ConfigurationError(`${method}(key, { customerId, operation }): give the account and the operation the key was used with (operation as IdempotencyError.operation spells it, e.g. 'POST /v1/messaging').`);
    }
    return scope;
  };

  const inspect = async (key: string, scope: IdempotencyScope): Promise<IdempotencyKeyState | undefined> => {
    const found = await look.call(store, idOf(key, scopeOf(scope, 'inspect')));
    if (!found) return undefined;
    const { state, expiresAt } = found;
    if (state !== 'done') return { state, expiresAt, sendingSince: found.sendingSince, leaseUntil: found.leaseUntil };
    const stored = parse(found.value);
    if ('u' in stored) return { state: 'unknown', expiresAt, referenceId: stored.u ?? undefined };
    const data = stored.d as { reference_id?: unknown } | null;
    return { state: 'answered', expiresAt, status: stored.s, referenceId: typeof data?.reference_id === 'string' ? data.reference_id : undefined };
  };

  return {
    inspect,
    async release(key, scope) {
      const given = scopeOf(scope, 'release');
      if (scope.confirmNotSent !== true) {
        throw new ConfigurationError(
          `release(key, { customerId, operation, confirmNotSent: true }): a released key sends again, so pass confirmNotSent: true only once you know its send did not go out (no transaction under its reference id, no callback). Nothing was released.`,
        );
      }
      const now = await inspect(key, given);
      if (now?.state === 'sending') throw new ConfigurationError(`release: idempotencyKey ${shown(key)} is being sent right now (its call renews its lease): nothing was released. Wait for its outcome, or until it is stalled.`);
      if (now?.state === 'answered') throw new ConfigurationError(`release: the service answered the send with idempotencyKey ${shown(key)}${now.referenceId ? ` (reference id ${now.referenceId})` : ''}: it went out, so nothing was released. Use a new key for a new message.`);
      return (await forget.call(store, idOf(key, given))) === true;
    },
    async run<T>({ key, customerId, apiKey, request }: IdempotentSend, send: () => Promise<ApiResponse<T>>): Promise<ApiResponse<T>> {
      if (typeof key !== 'string' || key.length === 0 || key.length > 255) {
        throw new ValidationError('idempotencyKey', `must be a string of 1 to 255 characters, such as the id of the job or order the message is for; got ${typeof key === 'string' ? `${key.length} characters` : typeof key}.`);
      }
      const operation = `${request.method} ${request.path}`;
      if (request.method !== 'POST') throw new ValidationError('idempotencyKey', `applies to sends (SMS, bulk SMS, calls, verification sends), not to ${operation}.`);
      const id = idOf(key, { customerId, operation });
      // What was asked, every parameter: a key reused for another message or code is refused.
      const fingerprint = fingerprintOf(apiKey, request);

      const answer = (value: string | undefined): ApiResponse<T> => {
        const stored = parse(value);
        if (stored.f !== fingerprint) {
          throw new IdempotencyError(
            'idempotency_mismatch',
            key,
            `idempotencyKey ${shown(key)} was already used for ${operation} with other parameters (another message, recipient or code), so nothing was sent: use a new key for a new message or a new code; the same key only to repeat the same send.`,
            { operation },
          );
        }
        if ('u' in stored) throw unknownOutcome(key, operation, stored.u ?? undefined);
        return { data: stored.d as T, status: stored.s, headers: new Headers(stored.h) };
      };

      const deadline = Date.now() + waitMs;
      for (let pause = 25; ; pause = Math.min(pause * 2, 500)) {
        let begun;
        try {
          begun = await within(leaseMs, () => store.begin(id, leaseMs));
        } catch (error) {
          throw storeFailed(key, operation, 'failed (see cause)', error);
        }
        if (begun.state === 'done') return answer(begun.value);
        if (begun.state === 'started') return sendOnce(begun.token);
        if (begun.phase === 'stalled') throw stalled(key, operation);
        const left = deadline - Date.now();
        if (left <= 0) {
          throw new IdempotencyError(
            'idempotency_in_progress',
            key,
            `Another call with idempotencyKey ${shown(key)} has not finished after ${waitMs} ms: its send may be going out, so it is not sent again. ` +
              `Retry later with the same key: you get its answer, or idempotency_unknown at once if that call stopped.`,
            { operation },
          );
        }
        await sleep(Math.min(pause, left), undefined);
      }

      /** The key is reserved for this call: mark it as being sent, send, keep the lease while it runs, record the outcome. */
      async function sendOnce(token: string): Promise<ApiResponse<T>> {
        let marked: boolean;
        try {
          marked = await within(leaseMs, () => sending.call(store, id, token, leaseMs, ttlMs));
        } catch (error) {
          await record(() => store.abandon(id, token));
          throw storeFailed(key, operation, 'failed to mark the key as being sent (see cause)', error);
        }
        if (!marked) throw storeFailed(key, operation, `lost this call's reservation of the key before the send (the store took longer than leaseMs, ${leaseMs} ms)`);
        const renewal = setInterval(() => {
          void record(async () => {
            if ((await sending.call(store, id, token, leaseMs, ttlMs)) === false) throw new Error(`the lease of idempotencyKey ${shown(key)} was lost while sending (the key was released or expired)`);
          });
        }, Math.floor(leaseMs / 3));
        let response: ApiResponse<T>;
        try {
          response = await send();
        } catch (error) {
          clearInterval(renewal);
          if (notSent(error)) {
            await record(() => store.abandon(id, token));
            throw error;
          }
          const referenceId = error instanceof ApiError ? error.referenceId : undefined;
          await record(() => store.complete(id, token, ttlMs, JSON.stringify({ f: fingerprint, u: referenceId ?? null } satisfies Stored)));
          throw unknownOutcome(key, operation, referenceId, error);
        }
        clearInterval(renewal);
        // Of the headers, those that describe the answer (its type, the service's x- headers);
        // the connection's (date, length, keep-alive, server, ...) would not be true of a replay.
        const headers: Array<[string, string]> = [];
        response.headers.forEach((value, name) => void ((name === 'content-type' || name.startsWith('x-')) && headers.push([name, value])));
        const stored: Stored = { f: fingerprint, d: maskSecretsIn(response.data), s: response.status, h: headers };
        await record(() => store.complete(id, token, ttlMs, JSON.stringify(stored)));
        return response;
      }
    },
  };
}

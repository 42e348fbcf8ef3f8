import { callbackSignature, type DeliveryStore, type HeaderInput, type KeyCache, type MacProvider } from '@x/auth';
import { headerValue, HEADER, timingSafeEqual } from '@x/auth/protocol';
import { beginDelivery, checkStore, UNTRACKED } from './delivery.js';
import { CallbackVerificationError, WebhookError } from './errors.js';
import { CALLBACK_FAILURES, DEFAULT_LEASE_MS, type CallbackFailure } from './failures.js';
import { callbackIdentity } from './identity.js';
import type { CallbackPayload } from './types.js';

export interface CallbackOptions {
  customerId: string;
  /** The API key (base64, as issued). */
  apiKey?: string | undefined;
  /** Several keys during a rotation: any of them may have signed. */
  apiKeys?: readonly string[] | undefined;
  /** Accept `X-TS-Authorization` when there is no TSA `Authorization`. Default true (it is announced for retirement). */
  allowLegacyHeader?: boolean | undefined;
  /**
   * Processes each callback exactly once: a verified delivery is begun (in progress) and must be
   * completed when your handler succeeded or abandoned when it failed (`result.complete()` /
   * `result.abandon()`, or use `handleCallback`). A copy that arrives meanwhile is `in_progress`,
   * one after a success is `duplicate`. `createMemoryReplayStore()` (@x/auth) and
   * `createRedisReplayStore()` (@x/redis) implement the contract.
   */
  replayStore?: DeliveryStore | undefined;
  /** How long a processed delivery is remembered. Default 24 hours. */
  dedupeTtlMs?: number | undefined;
  /**
   * How long a delivery stays in progress without an outcome (its process may have died); after
   * that the next delivery is processed. Default 30 s: less than the service's 40 s between its
   * first and last attempt, so a dead process never costs the update.
   */
  leaseMs?: number | undefined;
  /**
   * The HMAC implementation, the same `mac` option as everywhere in the SDK. Default: the
   * runtime's, by export condition (node:crypto on Node, @noble/hashes elsewhere); a `keyCache`
   * of prepared keys (what the adapters hold) is cheaper in a server. Not used with a `keyCache`
   * (its own `mac` is).
   */
  mac?: MacProvider | undefined;
  /**
   * Prepared keys to reuse across callbacks (`createKeyCache({ mac })` from @x/auth), held by you:
   * one per server or route. Without one, each call decodes the key and prepares its HMAC anew
   * (the adapters hold one per middleware).
   */
  keyCache?: KeyCache | undefined;
  /**
   * Called when the outcome of a delivery could not be recorded (the store failed after the
   * handler ran), by `handleCallback` and the adapters. Default: `console.error`. The delivery is
   * then processed again after its lease: at least once, never lost.
   */
  onStoreError?: ((error: unknown) => void) | undefined;
  /**
   * Called by `handleCallback` and the adapters when your handler succeeded after its lease ran
   * out and another delivery of the same callback had been begun meanwhile (the service retried,
   * or another process took it over): the success is recorded all the same, but that copy may be
   * processing the update too, so make your handler idempotent or raise `leaseMs`. Default: `console.warn`.
   */
  onLeaseLost?: ((lost: LeaseLost) => void) | undefined;
}

/** What `onLeaseLost` gets: the delivery whose success was recorded after another copy had taken it over. */
export interface LeaseLost {
  reason: 'lease_lost';
  /** The de-duplication identity (see `callbackIdentity`). */
  identity: string;
  payload: CallbackPayload;
}

/** A verified callback. With a `replayStore` it is in progress until you settle it. */
export interface VerifiedCallback {
  ok: true;
  payload: CallbackPayload;
  /** Which header verified it; `x-ts-authorization` means the retiring header was all there was. */
  header: 'authorization' | 'x-ts-authorization';
  /** The de-duplication identity (see `callbackIdentity`). */
  identity: string;
  /**
   * Your handler succeeded: remember the delivery as done. Resolves false when the lease was lost
   * (another delivery had taken it over; the success is recorded all the same), else true. Without
   * a store, a no-op that resolves true. The first of complete/abandon wins.
   */
  complete(): Promise<boolean>;
  /** Your handler failed: release the delivery so the service's retry is processed. Without a store, a no-op. */
  abandon(): Promise<void>;
}

/** A callback that is not to be processed, and why. */
export interface CallbackRejection {
  ok: false;
  reason: CallbackFailure;
  message: string;
  /** The verified payload, for `duplicate` and `in_progress`. */
  payload?: CallbackPayload;
}

export type CallbackResult = VerifiedCallback | CallbackRejection;

export interface CallbackInput {
  /** The raw body as received: bytes, or the undecoded text. Never a parsed object. */
  body: string | Uint8Array;
  headers: HeaderInput;
  /**
   * The body as already parsed FROM THESE SAME BYTES by your framework, to skip a second parse.
   * Only the raw bytes are verified; this is used as the payload once they are. The
   * de-duplication identity is still read from the bytes (with a `replayStore`, or when `identity`
   * is read), so that it never depends on how your parser transformed them.
   */
  parsed?: unknown;
}

/** A rejection with the message of the failure table (or a more precise one). */
export const reject = (reason: CallbackFailure, payload?: CallbackPayload, message = CALLBACK_FAILURES[reason].message): CallbackRejection =>
  payload ? { ok: false, reason, message, payload } : { ok: false, reason, message };

const TSA = /^TSA ([^\s:]{1,256}):([A-Za-z0-9+/]{1,200}={0,2})$/i;
const SIGNATURE = /^[A-Za-z0-9+/]{1,200}={0,2}$/;
const DAY_MS = 86_400_000;

/**
 * Verifies a callback the service sent: `Authorization: TSA <customer id>:<sig>` first (the
 * customer id must match), else `X-TS-Authorization: <sig>`; HMAC-SHA256 of the raw body with
 * the decoded key, compared in constant time. Never throws on what the sender controls.
 * With a `replayStore`, a verified delivery is begun: settle it with `complete()` / `abandon()`.
 *
 * @example
 * ```ts
 * import { verifyCallback } from '@x/webhooks';
 *
 * async function receive(body: Uint8Array, headers: Record<string, string>) {
 *   const result = await verifyCallback({ body, headers }, { customerId, apiKey }); // the raw bytes, as received
 *   if (result.ok) await db.saveStatus(result.payload);
 *   else log(result.reason); // never throws on what the sender controls
 * }
 * ```
 */
export async function verifyCallback(input: CallbackInput, options: CallbackOptions): Promise<CallbackResult> {
  const { body } = input ?? ({} as CallbackInput);
  if (typeof body !== 'string' && !(body instanceof Uint8Array)) {
    throw new WebhookError(
      'body_parsed',
      'verifyCallback needs the raw body as received (a string or bytes); it got ' +
        (body === undefined || body === null ? 'nothing' : 'a parsed object') +
        '. Keep the raw bytes, e.g. express.raw({ type: "application/json" }).',
    );
  }
  const keys = options.apiKeys ?? (options.apiKey ? [options.apiKey] : []);
  if (keys.length === 0) throw new WebhookError('missing_key', 'verifyCallback needs apiKey (or apiKeys during a rotation).');
  const store = options.replayStore && checkStore(options.replayStore);
  const headers = input.headers ?? {};
  // `Authorization: TSA <customer id>:<signature>` first; else the retiring X-TS-Authorization.
  const authorization = headerValue(headers, HEADER.authorization)?.trim();
  const tsa = authorization ? TSA.exec(authorization) : null;
  let given: string | undefined;
  let header: VerifiedCallback['header'] = 'authorization';
  if (tsa) {
    if (tsa[1] !== options.customerId) return reject('customer_mismatch');
    given = tsa[2]!;
  } else {
    given = headerValue(headers, HEADER.tsAuthorization)?.trim();
    if (given === undefined || options.allowLegacyHeader === false) return reject(authorization ? 'malformed_authorization' : 'missing_signature');
    if (!SIGNATURE.test(given)) return reject('malformed_authorization');
    header = 'x-ts-authorization';
  }
  const match = matchesAny(given, body, keys, options);
  if (!match) return reject('signature_mismatch');

  const parsed = input.parsed !== undefined;
  let payload: CallbackPayload;
  try {
    payload = (parsed ? input.parsed : parse(body)) as CallbackPayload;
  } catch {
    return reject('invalid_json');
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return reject('invalid_json');
  if (!store) return new Untracked(payload, header, body, parsed);
  return begin(store, payload, header, body, parsed, options);
}

/** Whether `given` is the signature of `body` under any of the keys, compared with every key (no early stop). */
function matchesAny(given: string, body: string | Uint8Array, keys: readonly string[], { keyCache, mac }: CallbackOptions): boolean {
  let match = false;
  for (const key of keys) {
    const expected = keyCache ? keyCache.mac('HMAC-SHA256', key)([body]) : callbackSignature(body, key, mac);
    match = timingSafeEqual(given, expected) || match;
  }
  return match;
}

/** The JSON of verified bytes (it may throw). */
const parse = (body: string | Uint8Array): unknown => JSON.parse(typeof body === 'string' ? body : new TextDecoder().decode(body));

/**
 * The identity of a verified callback, read from its own bytes when the payload came from the
 * caller's parser (a parser may transform what it reads: revivers, renamed keys), so that
 * de-duplication never depends on it. Bytes JSON.parse cannot read are identified by their hash.
 */
function identityOf(payload: CallbackPayload, body: string | Uint8Array, parsed: boolean): string {
  if (parsed) {
    try {
      payload = parse(body) as CallbackPayload;
    } catch {
      payload = undefined as unknown as CallbackPayload; // not JSON to JSON.parse (the caller's parser read more): identified by its bytes
    }
  }
  return callbackIdentity(payload, body);
}

/** Begins the delivery of a verified callback in the store: in progress, or why it is not to be processed. */
async function begin(store: DeliveryStore, payload: CallbackPayload, header: VerifiedCallback['header'], body: string | Uint8Array, parsed: boolean, options: CallbackOptions): Promise<CallbackResult> {
  const identity = identityOf(payload, body, parsed);
  const delivery = await beginDelivery(store, `callback:${options.customerId}:${identity}`, options.leaseMs ?? DEFAULT_LEASE_MS, options.dedupeTtlMs ?? DAY_MS);
  if (delivery === 'done') return reject('duplicate', payload);
  if (delivery === 'in_progress') return reject('in_progress', payload);
  return { ok: true, payload, header, identity, ...delivery };
}

/**
 * A verified callback without a store. Its identity is computed when read (only de-duplication
 * needs it): a class with a prototype getter, as an object literal with a getter is slow to create.
 */
class Untracked implements VerifiedCallback {
  readonly ok = true;
  #identity: string | undefined;
  readonly #body: string | Uint8Array;
  readonly #parsed: boolean;
  constructor(
    readonly payload: CallbackPayload,
    readonly header: VerifiedCallback['header'],
    body: string | Uint8Array,
    parsed: boolean,
  ) {
    this.#body = body;
    this.#parsed = parsed;
  }
  get identity(): string {
    return (this.#identity ??= identityOf(this.payload, this.#body, this.#parsed));
  }
  complete = UNTRACKED.complete;
  abandon = UNTRACKED.abandon;
}

/**
 * Like `verifyCallback`, but throws `CallbackVerificationError` instead of returning a failure.
 * Not with a `replayStore` (it could not report your handler's outcome): use `handleCallback`.
 *
 * @example
 * ```ts
 * import { assertCallback } from '@x/webhooks';
 * import { createSignedCallback } from '@x/webhooks/testing';
 *
 * const { body, headers } = createSignedCallback('{"reference_id":"0123456789ABCDEF0123456789ABCDEF"}', { customerId, apiKey });
 * const payload = await assertCallback({ body, headers }, { customerId, apiKey }); // throws CallbackVerificationError otherwise
 * ```
 */
export async function assertCallback(input: CallbackInput, options: CallbackOptions): Promise<CallbackPayload> {
  if (options.replayStore) {
    throw new WebhookError(
      'outcome_required',
      'assertCallback cannot de-duplicate (it never hears whether your handler succeeded): ' +
        'use handleCallback(input, options, handler), or verifyCallback and complete() / abandon().',
    );
  }
  const result = await verifyCallback(input, options);
  if (!result.ok) throw new CallbackVerificationError(result.reason, result.message);
  return result.payload;
}

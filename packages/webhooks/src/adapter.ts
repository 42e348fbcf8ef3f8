import { createKeyCache, verifyRequest, type HeaderInput, type KeyCache, type MacProvider, type VerifyOptions } from '@x/auth';
import { VERIFY_FAILURE_CODES, VERIFY_FAILURE_TEXTS, type VerifyFailure } from '@x/service/failures';
import { BodyTooLargeError } from './body.js';
import { settleDelivery } from './settle.js';
import { callbackAnswer, type CallbackAnswer, type CallbackFailure } from './failures.js';
import { verifyCallback, type CallbackOptions, type VerifiedCallback } from './verify.js';

// What framework adapters share. An adapter gives three things (read the raw body with a limit,
// the headers, write an answer) and ties the delivery to its handler's outcome; the core reads,
// decides and responds. No crypto, time, identity, limits or status codes in adapters.

/**
 * A verification that failed, as the adapters' `onError` gets it (@x/express, @x/hono): the answer's
 * status and body, and why.
 */
export interface VerificationFailure {
  /** The status the default answer has (401, 400, 413). */
  status: number;
  /** The default answer's JSON body (`{ error, message }`, or the service's error body for a signed request). */
  body: Record<string, unknown>;
  /** Why: a callback failure (`signature_mismatch`, `body_too_large`, ...) or a signed-request one (`clock_skew`, ...). */
  reason: string;
}

/**
 * The failure an adapter's `onError` gets for a refusal, or undefined for a de-duplication answer
 * (200 duplicate, 503 in progress): those are not errors, and an `onError` must not turn them into
 * something the service would misread (a 2xx for an in-progress copy would lose the update).
 *
 * @example
 * ```ts
 * import { verificationFailure, type AdapterExchange } from '@x/webhooks/adapter';
 *
 * declare function write(status: number, headers: unknown, body: unknown): void;
 * const respond: AdapterExchange<string>['respond'] = (answer, reason) => {
 *   const failure = verificationFailure(answer, reason);
 *   if (failure) log(failure.reason); // 401 / 400 / 413; never for 200 duplicate or 503 in progress
 *   write(answer.status, answer.headers, answer.body);
 * };
 * ```
 */
export function verificationFailure(answer: CallbackAnswer, reason: string): VerificationFailure | undefined {
  return reason === 'duplicate' || reason === 'in_progress' ? undefined : { status: answer.status, body: answer.body, reason };
}

/** The I/O of one request, as a framework adapter provides it. */
export interface AdapterExchange<Reason extends string> {
  /** The raw body, at most `limit` bytes; throws `BodyTooLargeError` beyond. */
  readBody(limit: number): Promise<Uint8Array | string>;
  headers: HeaderInput;
  /** Writes the answer for a request that does not reach the handler. */
  respond(answer: CallbackAnswer, reason: Reason): void;
}

/** The I/O of one callback request. */
export interface CallbackExchange extends AdapterExchange<CallbackFailure> {
  /** The body as the framework already parsed it FROM THESE SAME BYTES, to skip a second parse. */
  parsed?(raw: Uint8Array | string): unknown;
}

/** The I/O of one signed request: its method and target as received, besides the body and headers. */
export interface SignedRequestExchange extends AdapterExchange<VerifyFailure | 'body_too_large'> {
  method: string;
  /** The request target as received (`/v1/messaging?x=1`) or the absolute URL. */
  url: string;
}

/**
 * An adapter's copy of its options with a key cache of its own unless they bring one: each key's
 * keyed HMAC is prepared once (with `mac`, else @x/auth's default: node:crypto on Node,
 * @noble/hashes elsewhere) and held in a bounded LRU (64 keys). One per middleware or plugin,
 * created when it is, never per request.
 *
 * @example
 * ```ts
 * import type { CallbackOptions } from '@x/webhooks';
 * import { withKeyCache } from '@x/webhooks/adapter';
 *
 * // When the middleware is created, not per request:
 * const options: CallbackOptions = { customerId, apiKey };
 * const verify = withKeyCache(options); // verify.keyCache: this middleware's own
 * ```
 */
export function withKeyCache<T extends { mac?: MacProvider | undefined; keyCache?: KeyCache | undefined }>(options: T): T & { keyCache: KeyCache } {
  return { ...options, keyCache: options.keyCache ?? createKeyCache({ mac: options.mac }) };
}

/** The one 413 path: the body, or undefined once 413 was answered. */
async function readWithin<Reason extends string>(exchange: AdapterExchange<Reason | 'body_too_large'>, limit: number): Promise<Uint8Array | string | undefined> {
  try {
    return await exchange.readBody(limit);
  } catch (error) {
    if (!(error instanceof BodyTooLargeError)) throw error;
    exchange.respond(callbackAnswer('body_too_large', { limit }), 'body_too_large');
    return undefined;
  }
}

/**
 * Read, decide, respond: the verified callback for the handler (in progress with a store), or
 * undefined once the answer was written (401 / 400 / 413, 200 duplicate, 503 in progress).
 *
 * @example
 * ```ts
 * import { receiveCallback, type CallbackExchange } from '@x/webhooks/adapter';
 *
 * // In a framework adapter: the framework's I/O in, the verified callback (or an answer written) out.
 * async function adapter(exchange: CallbackExchange) {
 *   const callback = await receiveCallback(exchange, { customerId, apiKey }, 100 * 1024);
 *   if (callback) await db.saveStatus(callback.payload);
 * }
 * ```
 */
export async function receiveCallback(exchange: CallbackExchange, options: CallbackOptions, limit: number): Promise<VerifiedCallback | undefined> {
  const raw = await readWithin(exchange, limit);
  if (raw === undefined) return undefined;
  return decideCallback(exchange, raw, options);
}

/**
 * `receiveCallback` once the adapter has the raw body in hand (it read it in its own pass): the
 * verified callback, or undefined once the answer was written. Rejects with what `verifyCallback`
 * rejects with (a parsed body, no key, a store without the delivery contract).
 *
 * @example
 * ```ts
 * import { decideCallback, type CallbackExchange } from '@x/webhooks/adapter';
 *
 * // In a framework adapter that has read the bytes itself (a parser hook, a stream of its own):
 * async function adapter(exchange: CallbackExchange, raw: Uint8Array) {
 *   const callback = await decideCallback(exchange, raw, { customerId, apiKey });
 *   if (callback) await db.saveStatus(callback.payload);
 * }
 * ```
 */
export async function decideCallback(
  exchange: Pick<CallbackExchange, 'headers' | 'parsed' | 'respond'>,
  raw: Uint8Array | string,
  options: CallbackOptions,
): Promise<VerifiedCallback | undefined> {
  const result = await verifyCallback({ body: raw, headers: exchange.headers, parsed: exchange.parsed?.(raw) }, options);
  if (result.ok) return result;
  exchange.respond(callbackAnswer(result.reason, options), result.reason);
  return undefined;
}

/**
 * A handler succeeded when it answered 2xx (and did not throw).
 *
 * @example
 * ```ts
 * import { succeeded } from '@x/webhooks/adapter';
 *
 * succeeded(204); // true
 * succeeded(500); // false
 * ```
 */
export const succeeded = (status: number) => status >= 200 && status < 300;

/**
 * Settles a delivery from the handler's outcome: the first signal wins (true completes, false
 * abandons); store failures go to `onStoreError` and a success after the lease was lost to
 * `onLeaseLost` (the answer is already on its way). The promise resolves once settled and never rejects.
 *
 * @example
 * ```ts
 * import { receiveCallback, settleWith, succeeded, type CallbackExchange } from '@x/webhooks/adapter';
 *
 * async function adapter(exchange: CallbackExchange, respondWith: () => Promise<number>) {
 *   const callback = await receiveCallback(exchange, { customerId, apiKey }, 100 * 1024);
 *   if (!callback) return;
 *   const settle = settleWith(callback, {});
 *   try {
 *     settle(succeeded(await respondWith())); // 2xx completes; anything else abandons
 *   } catch (error) {
 *     settle(false);
 *     throw error;
 *   }
 * }
 * ```
 */
export function settleWith(callback: VerifiedCallback, options: Pick<CallbackOptions, 'onStoreError' | 'onLeaseLost'>): (ok: boolean) => Promise<void> {
  return (ok) => settleDelivery(callback, ok, options);
}

/**
 * The answer to a request refused by `verifyRequest`: its status (401, or 400) and the body the
 * service answers (its code, description and time), with our reason.
 *
 * @example
 * ```ts
 * import { verifyRequest } from '@x/auth';
 * import { signedRequestAnswer } from '@x/webhooks/adapter';
 *
 * const result = await verifyRequest({ method: 'GET', url: '/v1/messaging/ABC', headers: {} }, { credentials: lookup });
 * if (!result.ok) log(signedRequestAnswer(result)); // 401 and the service's error body
 * ```
 */
export function signedRequestAnswer(result: { status: number; reason: VerifyFailure }): CallbackAnswer {
  return {
    status: result.status,
    headers: {},
    body: { status: { code: VERIFY_FAILURE_CODES[result.reason].positive, description: VERIFY_FAILURE_TEXTS[result.reason], updated_on: new Date().toISOString() }, error: result.reason },
  };
}

/**
 * Read, decide, respond for a route that accepts requests signed as the service requires: the
 * verified customer for the handler, or undefined once the answer was written (401 with the
 * service's error body, 413 over the limit).
 *
 * @example
 * ```ts
 * import { receiveSignedRequest, type SignedRequestExchange } from '@x/webhooks/adapter';
 *
 * // In a framework adapter: the verified customer, or undefined once 401 / 413 was written.
 * async function adapter(exchange: SignedRequestExchange) {
 *   const verified = await receiveSignedRequest(exchange, { credentials: lookup }, 100 * 1024);
 *   if (verified) log(verified.customerId, verified.scheme);
 * }
 * ```
 */
export async function receiveSignedRequest(
  exchange: SignedRequestExchange,
  options: VerifyOptions,
  limit: number,
): Promise<{ customerId: string; scheme: 'basic' | 'digest' } | undefined> {
  const raw = await readWithin(exchange, limit);
  if (raw === undefined) return undefined;
  const result = await verifyRequest({ method: exchange.method, url: exchange.url, headers: exchange.headers, body: raw }, options);
  if (result.ok) return { customerId: result.customerId, scheme: result.scheme };
  exchange.respond(signedRequestAnswer(result), result.reason);
  return undefined;
}

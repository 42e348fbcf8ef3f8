import { callbackSignature, headerValue, HEADER, timingSafeEqual, type HeaderInput, type ReplayStore } from '@x/auth';
import type { CallbackPayload } from './types.js';

export type CallbackFailure =
  | 'missing_signature'
  | 'malformed_authorization'
  | 'customer_mismatch'
  | 'signature_mismatch'
  | 'invalid_json'
  | 'duplicate';

/** Computes base64(HMAC-SHA256(decoded key, body)). */
export type CallbackSigner = (body: string | Uint8Array, apiKey: string) => string;

export interface CallbackOptions {
  customerId: string;
  /** The API key (base64, as issued). */
  apiKey?: string;
  /** Several keys during a rotation: any of them may have signed. */
  apiKeys?: readonly string[];
  /** Accept `X-TS-Authorization` when there is no TSA `Authorization`. Default true (it is announced for retirement). */
  allowLegacyHeader?: boolean;
  /** De-duplicates deliveries: the same status update twice is reported as `duplicate`. */
  replayStore?: ReplayStore;
  /** How long a delivery is remembered. Default 24 hours. */
  dedupeTtlMs?: number;
  /**
   * The HMAC implementation. Default: `callbackSignature` from @x/auth (pure, every runtime).
   * On Node, `nativeCallbackSignature` from `@x/webhooks/node` is faster; the adapters use it.
   */
  signer?: CallbackSigner;
}

export type CallbackResult =
  | { ok: true; payload: CallbackPayload; header: 'authorization' | 'x-ts-authorization' }
  | { ok: false; reason: CallbackFailure; message: string; payload?: CallbackPayload };

export interface CallbackInput {
  /** The raw body as received: bytes, or the undecoded text. Never a parsed object. */
  body: string | Uint8Array;
  headers: HeaderInput;
  /**
   * The body as already parsed FROM THESE SAME BYTES by your framework, to skip a second parse.
   * Only the raw bytes are verified; this is used as the payload once they are.
   */
  parsed?: unknown;
}

/** Thrown for misuse (a parsed body, no key); attacker input never throws. */
export class WebhookError extends Error {
  override name = 'WebhookError';
  constructor(readonly code: 'body_parsed' | 'missing_key', message: string) {
    super(message);
  }
}

/** Thrown by `assertCallback`. */
export class CallbackVerificationError extends Error {
  override name = 'CallbackVerificationError';
  constructor(readonly reason: CallbackFailure, message: string) {
    super(message);
  }
}

const MESSAGES: Record<CallbackFailure, string> = {
  missing_signature: 'Neither Authorization (TSA) nor X-TS-Authorization was sent.',
  malformed_authorization: 'X-TS-Authorization is not a base64 signature.',
  customer_mismatch: 'The callback is signed for another customer ID.',
  signature_mismatch: 'The signature does not match the body. Verify the raw bytes as received, not re-serialised JSON.',
  invalid_json: 'The body is signed correctly but is not a JSON object.',
  duplicate: 'This status update was already delivered.',
};

const fail = (reason: CallbackFailure, payload?: CallbackPayload): CallbackResult =>
  payload ? { ok: false, reason, message: MESSAGES[reason], payload } : { ok: false, reason, message: MESSAGES[reason] };

// One decoder for every call: constructing one costs microseconds.
const decoder = new TextDecoder();

const TSA = /^TSA ([^\s:]{1,256}):([A-Za-z0-9+/]{1,200}={0,2})$/i;
const SIGNATURE = /^[A-Za-z0-9+/]{1,200}={0,2}$/;

/** What identifies one status update of one transaction, for de-duplication. */
export const callbackIdentity = (p: CallbackPayload) => `${p.reference_id}:${p.status?.code}:${p.status?.updated_on}`;

/**
 * Verifies a callback the service sent: `Authorization: TSA <customer id>:<sig>` first (the
 * customer id must match), else `X-TS-Authorization: <sig>`; HMAC-SHA256 of the raw body with
 * the decoded key, compared in constant time. Never throws on what the sender controls.
 */
export async function verifyCallback(input: CallbackInput, options: CallbackOptions): Promise<CallbackResult> {
  const { body } = input ?? ({} as CallbackInput);
  if (typeof body !== 'string' && !(body instanceof Uint8Array)) {
    throw new WebhookError(
      'body_parsed',
      'verifyCallback needs the raw body (a string or bytes as received); it got ' +
        (body === undefined || body === null ? 'nothing' : 'a parsed object') +
        '. Read the body before any JSON parser runs, or keep the raw bytes (e.g. express.raw({ type: "application/json" })).',
    );
  }
  const keys = options.apiKeys ?? (options.apiKey ? [options.apiKey] : []);
  if (keys.length === 0) throw new WebhookError('missing_key', 'verifyCallback needs apiKey (or apiKeys during a rotation).');
  const headers = input.headers ?? {};
  const authorization = headerValue(headers, HEADER.authorization)?.trim();
  const tsa = authorization ? TSA.exec(authorization) : null;
  let given: string;
  let header: 'authorization' | 'x-ts-authorization';
  if (tsa) {
    if (tsa[1] !== options.customerId) return fail('customer_mismatch');
    given = tsa[2]!;
    header = 'authorization';
  } else {
    const legacy = headerValue(headers, HEADER.tsAuthorization)?.trim();
    if (legacy === undefined || options.allowLegacyHeader === false) return fail(authorization ? 'malformed_authorization' : 'missing_signature');
    if (!SIGNATURE.test(legacy)) return fail('malformed_authorization');
    given = legacy;
    header = 'x-ts-authorization';
  }
  // Compare with every key, without stopping early.
  const sign = options.signer ?? callbackSignature;
  let match = false;
  for (const key of keys) match = timingSafeEqual(given, sign(body, key)) || match;
  if (!match) return fail('signature_mismatch');

  let payload: CallbackPayload;
  try {
    payload = (input.parsed !== undefined ? input.parsed : JSON.parse(typeof body === 'string' ? body : decoder.decode(body))) as CallbackPayload;
  } catch {
    return fail('invalid_json');
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return fail('invalid_json');
  if (options.replayStore && !(await options.replayStore.claim(`callback:${options.customerId}:${callbackIdentity(payload)}`, options.dedupeTtlMs ?? 86_400_000))) {
    return fail('duplicate', payload);
  }
  return { ok: true, payload, header };
}

/** Like `verifyCallback`, but throws `CallbackVerificationError` instead of returning a failure. */
export async function assertCallback(input: CallbackInput, options: CallbackOptions): Promise<CallbackPayload> {
  const result = await verifyCallback(input, options);
  if (!result.ok) throw new CallbackVerificationError(result.reason, result.message);
  return result.payload;
}

/**
 * For web-standard servers (Deno, Bun, workers, Hono): reads the bytes once and verifies them.
 * The request body is consumed; use `result.payload`.
 */
export async function verifyCallbackRequest(request: Request, options: CallbackOptions): Promise<CallbackResult> {
  const body = new Uint8Array(await request.arrayBuffer());
  return verifyCallback({ body, headers: request.headers }, options);
}

// One table for every way a callback is not processed: the reason, the HTTP answer the adapters
// give (and `callbackAnswer` gives users of verifyCallback), and the message.

export type CallbackFailure =
  | 'missing_signature'
  | 'malformed_authorization'
  | 'customer_mismatch'
  | 'signature_mismatch'
  | 'invalid_json'
  | 'body_too_large'
  | 'duplicate'
  | 'in_progress';

export const CALLBACK_FAILURES: Readonly<Record<CallbackFailure, { status: number; message: string }>> = {
  missing_signature: { status: 401, message: 'Neither Authorization (TSA) nor X-TS-Authorization was sent.' },
  malformed_authorization: { status: 401, message: 'X-TS-Authorization is not a base64 signature.' },
  customer_mismatch: { status: 401, message: 'The callback is signed for another customer ID.' },
  signature_mismatch: { status: 401, message: 'The signature does not match the body: verify the raw bytes as received, not re-serialised JSON.' },
  invalid_json: { status: 400, message: 'The body is signed correctly but is not a JSON object.' },
  body_too_large: { status: 413, message: 'The body is larger than the limit.' },
  // 200 so that the service stops retrying: the first delivery was processed.
  duplicate: { status: 200, message: 'This status update was already processed.' },
  // Never 2xx: the service must retry, since the delivery in progress may still fail.
  in_progress: { status: 503, message: 'This update is being processed by another delivery; retry later.' },
};

/** What to answer: status, headers (lower-case names) and a small JSON body. */
export interface CallbackAnswer {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/** The default lease of an in-progress delivery: 30 s (see `CallbackOptions.leaseMs`). */
export const DEFAULT_LEASE_MS = 30_000;
/** The default largest callback body: 100 KiB (callbacks are under 2 KB). */
export const DEFAULT_BODY_LIMIT = 100 * 1024;

/**
 * The HTTP answer for a callback that is not processed. `in_progress` is 503 with
 * `Retry-After` = the lease in seconds: by then the delivery in progress has either succeeded
 * (the retry is a 200 duplicate), failed (the retry is processed) or died (its lease expired).
 *
 * @example
 * ```ts
 * import { callbackAnswer } from '@x/webhooks';
 *
 * const answer = callbackAnswer('signature_mismatch'); // { status: 401, headers, body }
 * const response = Response.json(answer.body, { status: answer.status, headers: answer.headers });
 * ```
 */
export function callbackAnswer(reason: CallbackFailure, options: { leaseMs?: number | undefined; limit?: number | undefined } = {}): CallbackAnswer {
  const { status, message } = CALLBACK_FAILURES[reason];
  if (reason === 'duplicate') return { status, headers: {}, body: { duplicate: true } };
  if (reason === 'in_progress') {
    return { status, headers: { 'retry-after': String(Math.max(1, Math.ceil((options.leaseMs ?? DEFAULT_LEASE_MS) / 1000))) }, body: { error: reason, message } };
  }
  if (reason === 'body_too_large' && options.limit !== undefined) {
    return { status, headers: {}, body: { error: reason, message: `The body is larger than ${options.limit} bytes.` } };
  }
  return { status, headers: {}, body: { error: reason, message } };
}

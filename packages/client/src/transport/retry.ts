// Whether to try again, and when. One table of facts: RETRY below, also in the README.
import { ApiError, NetworkError, RateLimitError, TimeoutError, type ClientError } from '../errors.js';

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  attempts: number;
  minDelayMs: number;
  maxDelayMs: number;
}

/** Statuses a request that is safe to repeat (idempotent) is retried on. */
const RETRY_STATUS = new Set([500, 502, 503, 504]);

/**
 * Whether `error` may be followed by another attempt of the same request.
 *
 * | failure                                            | idempotent | not idempotent (SMS, call) |
 * | refused, DNS failure, connect timeout (never left) | yes        | yes                        |
 * | 429 (the service did not process it)               | yes        | yes                        |
 * | 500, 502, 503, 504                                 | yes        | no                         |
 * | connection lost after sending, timeout             | yes        | no                         |
 * | 3xx, response too large, other 4xx, caller abort   | no         | no                         |
 *
 * A 503 is not retried for an SMS or a call: the service does not say that it did not act.
 */
export function shouldRetry(error: ClientError, idempotent: boolean): boolean {
  if (error instanceof NetworkError || error instanceof TimeoutError) return error.sent === false || idempotent;
  if (error instanceof RateLimitError) return true;
  if (error instanceof ApiError && error.code === 'api_error') return idempotent && RETRY_STATUS.has(error.status);
  return false;
}

/**
 * The wait before attempt `attempt + 1`: what Retry-After asks (429, 503), or full-jitter
 * exponential backoff. Undefined when Retry-After asks for longer than `maxDelayMs`: the caller
 * gets the error (with `retryAfterMs`) at once rather than a retry that is too early.
 */
export function retryDelay(attempt: number, policy: RetryPolicy, error: ClientError, random: () => number = Math.random): number | undefined {
  const hinted = error instanceof ApiError ? error.retryAfterMs : undefined;
  if (hinted !== undefined) return hinted <= policy.maxDelayMs ? hinted : undefined;
  return Math.round(random() * Math.min(policy.maxDelayMs, policy.minDelayMs * 2 ** (attempt - 1)));
}

/** Retry-After in milliseconds: delay-seconds or an HTTP date. */
export function retryAfterMs(headers: { get(name: string): string | null }, now: number): number | undefined {
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

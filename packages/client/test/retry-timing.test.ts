import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError, RateLimitError, RedirectError, ResponseTooLargeError, TimeoutError } from '../src/index.js';
import { retryDelay, shouldRetry } from '../src/transport/retry.js';

const init = (status: number, retryAfterMs?: number) => ({ status, headers: new Headers(), body: undefined, method: 'GET', path: '/v1/x', retryAfterMs });

describe('retry timing', () => {
  it('backoff is full jitter under min(maxDelayMs, minDelayMs * 2^(attempt-1))', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 0, max: 1_000 }), fc.integer({ min: 0, max: 60_000 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (attempt, minDelayMs, maxDelayMs, r) => {
        const delay = retryDelay(attempt, { attempts: 99, minDelayMs, maxDelayMs }, new ApiError(init(502)), () => r);
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThanOrEqual(Math.min(maxDelayMs, minDelayMs * 2 ** (attempt - 1)));
      }),
    );
  });

  it('Retry-After is waited exactly when it fits under maxDelayMs, otherwise not at all', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 0, max: 100_000 }), fc.constantFrom(429, 503), (hint, maxDelayMs, status) => {
        const error = status === 429 ? new RateLimitError(init(429), hint) : new ApiError(init(503, hint));
        expect(retryDelay(1, { attempts: 3, minDelayMs: 250, maxDelayMs }, error, () => 0.5)).toBe(hint <= maxDelayMs ? hint : undefined);
      }),
    );
  });

  it.each([
    ['refused (never sent)', new NetworkError('x', false, undefined), true, true],
    ['connection lost after sending', new NetworkError('x', 'unknown', undefined), true, false],
    ['timeout', new TimeoutError('x'), true, false],
    ['429', new RateLimitError(init(429), undefined), true, true],
    ['500', new ApiError(init(500)), true, false],
    ['503', new ApiError(init(503, 0)), true, false],
    ['504', new ApiError(init(504)), true, false],
    ['501', new ApiError(init(501)), false, false],
    ['400', new ApiError(init(400)), false, false],
    ['200 without JSON', new ApiError(init(200), 'invalid_response'), false, false],
    ['redirect', new RedirectError({ status: 307, location: undefined, followed: false, method: 'GET', path: '/' }), false, false],
    ['response too large', new ResponseTooLargeError({ status: 200, limitBytes: 1 }), false, false],
  ] as const)('%s: retried when idempotent %s, when not %s', (_name, error, idempotent, notIdempotent) => {
    expect(shouldRetry(error, true)).toBe(idempotent);
    expect(shouldRetry(error, false)).toBe(notIdempotent);
  });
});

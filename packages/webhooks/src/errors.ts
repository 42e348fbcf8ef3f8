import type { CallbackFailure } from './failures.js';

/** Codes of the errors thrown for misuse (never for what the sender controls, which gets a result). */
export type WebhookErrorCode = 'body_parsed' | 'body_used' | 'missing_key' | 'invalid_store' | 'outcome_required';

/** Thrown for misuse (a parsed or already read body, no key, a store that cannot hold deliveries). */
export class WebhookError extends Error {
  override name = 'WebhookError';
  constructor(
    readonly code: WebhookErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Thrown by `assertCallback`. */
export class CallbackVerificationError extends Error {
  override name = 'CallbackVerificationError';
  constructor(
    readonly reason: CallbackFailure,
    message: string,
  ) {
    super(message);
  }
}

import { XError } from '@x/auth';
import type { CallbackFailure } from './failures.js';

// The key of the brand XError reads (see @x/auth's errors.ts): each class names itself, so that
// `instanceof` holds across the ESM and CommonJS copies of this package (the main and /node
// entries of the CommonJS build each carry one).
const BRAND: unique symbol = Symbol.for('@x/error.brand');

/** Codes of the errors thrown for misuse (never for what the sender controls, which gets a result). */
export type WebhookErrorCode =
  | 'body_parsed'
  | 'body_used'
  | 'missing_key'
  | 'invalid_store'
  | 'outcome_required'
  | 'missing_options'
  | 'not_verified'
  | 'state_contended'
  | 'unknown_event'
  | 'invalid_handler'
  | 'invalid_option'
  | 'invalid_job';

/**
 * Thrown for misuse: a parsed or already read body, no key, a store that cannot hold deliveries,
 * an adapter without its options, a handler mounted without its verifier. The message says what to do.
 */
export class WebhookError extends XError {
  static readonly [BRAND]: string = '@x/webhooks/WebhookError';
  override name = 'WebhookError';
  declare readonly code: WebhookErrorCode;

  constructor(code: WebhookErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

/** Thrown by `assertCallback`: the callback is not to be processed; `reason` says why. */
export class CallbackVerificationError extends XError {
  static readonly [BRAND]: string = '@x/webhooks/CallbackVerificationError';
  override name = 'CallbackVerificationError';
  declare readonly code: 'callback_rejected';
  readonly reason: CallbackFailure;

  constructor(reason: CallbackFailure, message: string) {
    super('callback_rejected', message);
    this.reason = reason;
  }
}

/** A body over the limit (the adapters answer 413). */
export class BodyTooLargeError extends XError {
  static readonly [BRAND]: string = '@x/webhooks/BodyTooLargeError';
  override name = 'BodyTooLargeError';
  declare readonly code: 'body_too_large';
  /** The limit that was passed, in bytes, when known. */
  readonly limit: number | undefined;

  constructor(limit?: number) {
    super('body_too_large', limit === undefined ? 'The body is larger than the limit.' : `The body is larger than ${limit} bytes.`);
    this.limit = limit;
  }
}

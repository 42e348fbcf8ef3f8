/**
 * Verification of the service's signed callbacks: raw bytes, typed payloads, exactly-once delivery.
 *
 * @packageDocumentation
 * @module @x/webhooks
 */
export { verifyCallback, assertCallback } from './verify.js';
export type { CallbackOptions, LeaseLost, CallbackResult, CallbackRejection, VerifiedCallback, CallbackInput } from './verify.js';
export { handleCallback } from './handle.js';
export type { HandledCallback } from './handle.js';
export { verifyCallbackRequest } from './request.js';
export type { CallbackRequestOptions } from './request.js';
export { callbackIdentity } from './identity.js';
export { callbackAnswer, CALLBACK_FAILURES, DEFAULT_LEASE_MS, DEFAULT_BODY_LIMIT } from './failures.js';
export type { CallbackFailure, CallbackAnswer } from './failures.js';
export { WebhookError, CallbackVerificationError, BodyTooLargeError } from './errors.js';
export type { WebhookErrorCode } from './errors.js';
export { callbackKind, isCallbackKind, isVerifyCallback, isVoiceCallback, isVoiceEvent, isInboundSms } from './types.js';
export type {
  CallbackPayload,
  CallbackKind,
  CallbackKinds,
  SmsCallback,
  VerifyCallback,
  VerifySmsCallback,
  VerifyCallCallback,
  VerifyOutcome,
  VoiceCallback,
  VoiceEvent,
  BulkSmsCallback,
  InboundSmsCallback,
  VerifyApiCallback,
  CallbackStatus,
  CallbackBase,
} from './types.js';
// The service's vocabulary of callbacks (status codes and states), declared in @x/service.
export * from '@x/service';
export { XError } from '@x/auth';

/**
 * Verification of the service's signed callbacks: raw bytes, typed payloads, exactly-once delivery.
 *
 * @packageDocumentation
 * @module @x/webhooks
 */
export { verifyCallback, assertCallback } from './verify.js';
export type { CallbackOptions, CallbackResult, CallbackRejection, VerifiedCallback, CallbackInput } from './verify.js';
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
// The service's named codes and states (one table, in @x/auth), for switching on callbacks.
export {
  SMS_STATUS,
  SMS_STATUS_TEXT,
  VOICE_STATUS,
  VOICE_STATUS_TEXT,
  INBOUND_SMS_STATUS,
  CODE_STATE,
  CODE_STATE_TEXT,
  VERIFICATION_STATE,
  VERIFICATION_STATE_TEXT,
  XError,
  isSmsStatusCode,
  isVoiceStatusCode,
  isCodeState,
  isVerificationState,
} from '@x/auth';
export type { SmsStatusCode, VoiceStatusCode, CodeState, VerificationState } from '@x/auth';

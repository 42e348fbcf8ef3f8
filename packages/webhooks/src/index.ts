export { verifyCallback, assertCallback, verifyCallbackRequest, callbackIdentity, WebhookError, CallbackVerificationError } from './verify.js';
export type { CallbackOptions, CallbackResult, CallbackFailure, CallbackInput, CallbackSigner } from './verify.js';
export { createSignedCallback } from './testing.js';
export { callbackOutcome, signedRequestOutcome, tooLarge } from './adapter.js';
export type { AdapterOutcome } from './adapter.js';
export { isVerifyCallback, isVoiceCallback } from './types.js';
export type { CallbackPayload, SmsCallback, VerifyCallback, VoiceCallback, CallbackStatus, CallbackBase } from './types.js';

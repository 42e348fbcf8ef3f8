/**
 * Signing and verification of the service's requests and callbacks (TSA HMAC digest, Basic, replay store, status codes). Pure: runs in Node, Deno, Bun, browsers and workers.
 *
 * @packageDocumentation
 * @module @x/auth
 */
export { signRequest, createSigner } from './sign.js';
export type { SignableRequest, SignOptions, SignerOptions, SignedRequest, Signer } from './sign.js';
export { prepareMac, enableSha1, createKeyCache } from './hmac.js';
export type { MacProvider, PreparedMac, KeyCache, KeyCacheOptions } from './hmac.js';
export { basicAuthorization } from './basic.js';
export { verifyRequest } from './verify.js';
export { VERIFY_FAILURES, verifyFailureOf } from './failures.js';
export type { VerifyFailureFacts } from './failures.js';
export type { VerifyFailure, VerifyOptions, VerifyResult, VerifiableRequest, HeaderInput } from './verify.js';
export { createMemoryReplayStore } from './replay.js';
export type { ReplayStore, DeliveryStore, DeliveryBegin, MemoryReplayStore, MemoryReplayStoreOptions } from './replay.js';
export { callbackSignature, callbackHeaders } from './callback.js';
export type { Credentials } from './credentials.js';
export { readClock } from './clock.js';
export type { Clock } from './clock.js';
export { XError, AuthError } from './errors.js';
export type { AuthErrorCode } from './errors.js';
export type { Algorithm } from './constants.js';
export type { TransactionStatus, ServiceError, AdditionalInfo } from './service-types.js';
export {
  SMS_STATUS,
  SMS_STATUS_TEXT,
  VOICE_STATUS,
  VOICE_STATUS_TEXT,
  INBOUND_SMS_STATUS,
  INBOUND_SMS_STATUS_TEXT,
  CODE_STATE,
  CODE_STATE_TEXT,
  VERIFICATION_STATE,
  VERIFICATION_STATE_TEXT,
  isSmsStatusCode,
  isVoiceStatusCode,
  isCodeState,
  isVerificationState,
} from './status-codes.js';
export type { SmsStatusCode, VoiceStatusCode, InboundSmsStatusCode, CodeState, VerificationState } from './status-codes.js';

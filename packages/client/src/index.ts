/**
 * The typed, fetch-based client for every operation of the service.
 *
 * @packageDocumentation
 * @module @x/client
 */
export { createClient } from './client.js';
// The service's vocabulary (codes and states, the failure table, value lists, message analysis), declared in @x/service.
export * from '@x/service';
export { verifyFailureOf } from '@x/service/failures';
export type { VerifyFailure } from '@x/service/failures';
export * from '@x/service/request';
export { XError } from '@x/auth';
export type { Client } from './client.js';
export { DEFAULT_BASE_URL, DEFAULT_MAX_RESPONSE_BYTES, LOG_LEVELS } from './transport/index.js';
export type { ClientOptions, RequestOptions, SendOptions, RawRequest, RetryOptions, Hooks, Logger, LogFields, LogLevel, FetchFunction, FetchInit, FetchResponse, FetchBody } from './transport/index.js';
export { fromEnv, ENV_VARIABLES } from './env.js';
export type { EnvOptions, EnvRecord } from './env.js';
export type { CreateClientOptions, ProductOptions, ProductsOptions, IdempotencyHook, IdempotentSend } from './routing.js';
export {
  ClientError,
  ConfigurationError,
  ValidationError,
  ApiError,
  AuthenticationError,
  RateLimitError,
  TimeoutError,
  NetworkError,
  AbortedError,
  RedirectError,
  ResponseTooLargeError,
  isClientError,
} from './errors.js';
export type { ClientErrorCode, ApiErrorCode, IdempotencyErrorCode, IdempotencyFailure, XClientError } from './errors.js';
export type { ApiResponse, ServiceErrorBody } from './types.js';
export type { CommonParams, DltParams } from './products/fields.js';
export type { SendSmsParams, SmsResponse, MessagingOperations } from './products/messaging.js';
export type { VerifySmsParams, VerifyResponse, VerifyStatusResponse, VerifyOperations } from './products/verify.js';
export type { VoiceCallParams, VoiceResponse, VoiceOperations } from './products/voice.js';
export type { VoiceVerifyParams, VoiceVerifyResponse, CallForwarding, VoiceVerifyOperations } from './products/voice-verify.js';
export type { VerifyCompletionResponse, VerifyCompletionOperations } from './products/verify-completion.js';
export type {
  PhoneIdParams,
  PhoneIdResponse,
  PhoneIdBase,
  PhoneIdOperations,
  PhoneIdUseCase,
  PhoneIdStandardResponse,
  PhoneIdLiveResponse,
  PhoneIdDeactivationResponse,
  PhoneIdVariantOperations,
} from './products/phone-id.js';
export type { PhoneIdAddons, PhoneIdAddonName, PhoneIdConsent, PhoneIdAddonSections, AddonStatus, ContactFields } from './products/phone-id-addons.js';
export type { ScoreParams, ScoreResponse, RiskParams, RiskSection, RiskLevel, RiskRecommendation, ScoreOperations } from './products/score.js';
export type { IntelligenceParams, IntelligenceResponse, IntelligenceOperations, EmailIntelligenceParams, EmailIntelligenceResponse } from './products/intelligence.js';
export type {
  CreateVerificationParams,
  VerificationStep,
  VerificationMethod,
  VerificationPolicyEntry,
  Verification,
  FinalizeVerificationResponse,
  VerifyApiOperations,
} from './products/verify-api.js';
export type { BulkRecipient, BulkSmsParams, BulkSmsResponse, BulkSmsOperations } from './products/bulk-sms.js';

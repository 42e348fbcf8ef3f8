export { createClient } from './client.js';
export type { Client } from './client.js';
export { DEFAULT_BASE_URL, DEFAULT_MAX_RESPONSE_BYTES, LOG_LEVELS } from './transport/index.js';
export type { ClientOptions, RequestOptions, RawRequest, RetryOptions, Hooks, Logger, LogFields, LogLevel } from './transport/index.js';
export { fromEnv, ENV_VARIABLES } from './env.js';
export type { EnvOptions, EnvRecord } from './env.js';
export type { CreateClientOptions, ProductOptions, ProductsOptions } from './routing.js';
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
} from './errors.js';
export type { ClientErrorCode } from './errors.js';
export type {
  ApiResponse,
  MessageType,
  AccountLifecycleEvent,
  CodeState,
  UseCaseCode,
  CommonParams,
  DltParams,
  SendSmsParams,
  VerifySmsParams,
  VoiceCallParams,
  PhoneIdParams,
  TransactionStatus,
  ServiceError,
  AdditionalInfo,
  SmsResponse,
  VerifyResponse,
  VoiceResponse,
  PhoneIdResponse,
  ServiceErrorBody,
  VerifyStatusResponse,
  PhoneIdBase,
} from './types.js';
export type { VoiceVerifyParams, VoiceVerifyResponse, CallForwarding } from './products/voice-verify.js';
export type { VerifyCompletionResponse } from './products/verify-completion.js';
export type {
  PhoneIdUseCase,
  PhoneIdStandardResponse,
  PhoneIdLiveResponse,
  PhoneIdDeactivationResponse,
} from './products/phone-id.js';
export type { PhoneIdAddons, PhoneIdAddonName, PhoneIdConsent, PhoneIdAddonSections, AddonStatus, ContactFields } from './products/phone-id-addons.js';
export type { ScoreParams, ScoreResponse, RiskParams, RiskSection, RiskLevel, RiskRecommendation } from './products/score.js';
export type { IntelligenceParams, IntelligenceResponse } from './products/intelligence.js';
export type {
  CreateVerificationParams,
  VerificationStep,
  VerificationMethod,
  VerificationState,
  VerificationPolicyEntry,
  Verification,
  FinalizeVerificationResponse,
} from './products/verify-api.js';
export type { BulkRecipient, BulkSmsParams, BulkSmsResponse } from './products/bulk-sms.js';

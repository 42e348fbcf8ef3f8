export { createClient } from './client.js';
export type { Client } from './client.js';
export { DEFAULT_BASE_URL, DEFAULT_MAX_RESPONSE_BYTES } from './transport/index.js';
export type { ClientOptions, RequestOptions, RawRequest, RetryOptions, Hooks } from './transport/index.js';
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
} from './types.js';

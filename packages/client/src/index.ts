export { createClient } from './client.js';
export type { Client } from './client.js';
export { DEFAULT_BASE_URL } from './transport.js';
export type { ClientOptions, RequestOptions, RawRequest, RetryOptions, Hooks } from './transport.js';
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

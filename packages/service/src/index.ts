/**
 * The service's vocabulary of answers and callbacks, declared once: status codes and states with
 * their texts and guards, and the data types both carry. `@x/auth`, `@x/client` and `@x/webhooks`
 * re-export it: import the names from the package you use. The failure table is on
 * `@x/service/failures`, the value lists of requests and the message analysis on `@x/service/request`.
 *
 * @packageDocumentation
 * @module @x/service
 */
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
export type { TransactionStatus, ServiceError, AdditionalInfo } from './service-types.js';

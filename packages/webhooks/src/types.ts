// Callback payloads, from the service reference (§7.3). Fields the documents disagree on are typed
// with both forms (e.g. message_parts_count as number or string, updated_on as RFC 3339 or RFC 1123).
import type { AdditionalInfo, ServiceError, TransactionStatus } from '@x/auth';

/** The status object of a callback (the same shape as in the service's answers). */
export type CallbackStatus = TransactionStatus;

export interface CallbackBase {
  reference_id: string;
  status: CallbackStatus;
  submit_timestamp?: string;
  errors: ServiceError[];
  sub_resource?: string;
  external_id?: string;
  additional_info?: AdditionalInfo;
}

export interface SmsCallback extends CallbackBase {
  sub_resource: 'sms';
  verify?: undefined;
}

export interface VerifyCallback extends CallbackBase {
  sub_resource: 'sms';
  verify: { code_state: 'VALID' | 'INVALID' | 'EXPIRED' | 'MAX_ATTEMPTS_EXCEEDED' | 'UNKNOWN'; code_entered: string | null };
}

export interface VoiceCallback extends CallbackBase {
  sub_resource: 'voice';
  voice?: { user_input: string | null; caller_id: string | null };
}

export type CallbackPayload = SmsCallback | VerifyCallback | VoiceCallback;

export const isVerifyCallback = (p: CallbackPayload): p is VerifyCallback => typeof (p as VerifyCallback).verify === 'object' && (p as VerifyCallback).verify !== null;
export const isVoiceCallback = (p: CallbackPayload): p is VoiceCallback => p.sub_resource === 'voice';

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

/** SMS verify (`sms`) and voice verify (`call`) callbacks. */
export interface VerifyCallback extends CallbackBase {
  sub_resource: 'sms' | 'call';
  verify: { code_state: 'VALID' | 'INVALID' | 'EXPIRED' | 'MAX_ATTEMPTS_EXCEEDED' | 'UNKNOWN'; code_entered: string | null };
}

export interface VoiceCallback extends CallbackBase {
  sub_resource: 'voice';
  voice?: { user_input: string | null; caller_id: string | null };
}

/** An inbound SMS (MO) from an end user to your number (service-reference-next §7). */
export interface InboundSmsCallback extends CallbackBase {
  sub_resource: 'mo_sms';
  user_response: { phone_number: string; sender_id: string; mo_message: string };
  verify?: undefined;
}

/**
 * An event of the v2 Voice product (`incoming_call`, `dial_completed`, ...): no status object,
 * no sub_resource. Its `reference_id` may be a dashed UUID.
 */
export interface VoiceEvent {
  event: string;
  reference_id: string;
  external_id?: string;
  data: Record<string, unknown>;
  status?: undefined;
  sub_resource?: undefined;
  verify?: undefined;
}

export type CallbackPayload = SmsCallback | VerifyCallback | VoiceCallback | InboundSmsCallback | VoiceEvent;

export const isVerifyCallback = (p: CallbackPayload): p is VerifyCallback => typeof (p as VerifyCallback).verify === 'object' && (p as VerifyCallback).verify !== null;
export const isVoiceCallback = (p: CallbackPayload): p is VoiceCallback => p.sub_resource === 'voice';
export const isVoiceEvent = (p: CallbackPayload): p is VoiceEvent => typeof (p as VoiceEvent).event === 'string' && p.status === undefined;
export const isInboundSms = (p: CallbackPayload): p is InboundSmsCallback => p.sub_resource === 'mo_sms';

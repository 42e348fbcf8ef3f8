// Callback payloads, from the service references (service.md §14.3; service.md §6.2, §8, §9, §10). Fields
// the documents disagree on are typed with both forms (e.g. message_parts_count as number or
// string, updated_on as RFC 3339 or RFC 1123). One union, told apart by `callbackKind`.
import type { AdditionalInfo, CodeState, ServiceError, TransactionStatus, VerificationState } from '@x/service';

/** The status object of a callback (the same shape as in the service's answers). */
export type CallbackStatus = TransactionStatus;

/** The fields of the callbacks of the transaction products (SMS, verifications, voice, bulk, inbound). */
export interface CallbackBase {
  reference_id: string;
  status: CallbackStatus;
  submit_timestamp?: string;
  errors: ServiceError[];
  sub_resource?: string;
  external_id?: string;
  additional_info?: AdditionalInfo;
  event?: undefined;
  state?: undefined;
}

/** The outcome of a verification (SMS Verify, Voice Verify). */
export interface VerifyOutcome {
  code_state: CodeState;
  /** `null` in callbacks. */
  code_entered: string | null;
}

/** An SMS delivery report (Messaging, `sub_resource: 'sms'`, no `verify`). Kind `sms_status`. */
export interface SmsCallback extends CallbackBase {
  sub_resource: 'sms';
  verify?: undefined;
}

/** The callback of an SMS verification (SMS Verify): `sub_resource: 'sms'` like a delivery report, with `verify`. Kind `verify_sms`. */
export interface VerifySmsCallback extends CallbackBase {
  sub_resource: 'sms';
  verify: VerifyOutcome;
}

/** The callback of a voice verification (Voice Verify, `sub_resource: 'call'`). Kind `verify_call`. */
export interface VerifyCallCallback extends CallbackBase {
  sub_resource: 'call';
  verify: VerifyOutcome;
}

/** SMS verify (`sms`) and voice verify (`call`) callbacks. */
export type VerifyCallback = VerifySmsCallback | VerifyCallCallback;

/** A voice call (legacy Voice, `sub_resource: 'voice'`). Kind `voice`. */
export interface VoiceCallback extends CallbackBase {
  sub_resource: 'voice';
  voice?: { user_input: string | null; caller_id: string | null };
  verify?: undefined;
}

/**
 * The report of one recipient of a bulk SMS (`sub_resource: 'bulk_sms'`, service.md §9): `reference_id`
 * is the bulk request's; `session_id` is the recipient's id, else the request's, else null. Kind `bulk_sms`.
 */
export interface BulkSmsCallback extends CallbackBase {
  sub_resource: 'bulk_sms';
  session_id: string | null;
  verify?: undefined;
}

/** An inbound SMS (MO) from an end user to your number (service.md §10). Kind `inbound_sms`. */
export interface InboundSmsCallback extends CallbackBase {
  sub_resource: 'mo_sms';
  user_response: { phone_number: string; sender_id: string; mo_message: string };
  verify?: undefined;
}

/**
 * An event of the v2 Voice product (`incoming_call`, `dial_completed`, ...): no status object,
 * no sub_resource. Its `reference_id` may be a dashed UUID. Kind `voice_event`.
 */
export interface VoiceEvent {
  event: string;
  reference_id: string;
  external_id?: string;
  data: Record<string, unknown>;
  status?: undefined;
  sub_resource?: undefined;
  verify?: undefined;
  state?: undefined;
}

/** A Verify API delivery report (service.md §8): a `state`, no status object, no sub_resource. Kind `verify_api`. */
export interface VerifyApiCallback {
  reference_id: string;
  state: VerificationState;
  created_on?: string;
  updated_on?: string;
  recipient?: { phone_number?: string; email?: string };
  verification_policy?: Array<{ method: string; fallback_time?: number }>;
  /** One entry per method tried: its own state and delivery code (3001 in progress, 3000 delivered, 3003 failed). */
  inner_methods?: Array<{ method: string; state: VerificationState; err_code?: number }>;
  external_id?: string;
  status?: undefined;
  sub_resource?: undefined;
  verify?: undefined;
  event?: undefined;
}

/** Each kind of callback and its payload. */
export interface CallbackKinds {
  sms_status: SmsCallback;
  verify_sms: VerifySmsCallback;
  verify_call: VerifyCallCallback;
  voice: VoiceCallback;
  voice_event: VoiceEvent;
  bulk_sms: BulkSmsCallback;
  inbound_sms: InboundSmsCallback;
  verify_api: VerifyApiCallback;
}

/** What a callback is about: `callbackKind(payload)`. */
export type CallbackKind = keyof CallbackKinds;

/** Every callback the service sends. Tell the kinds apart with `callbackKind` / `isCallbackKind`. */
export type CallbackPayload = CallbackKinds[CallbackKind];

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

const BY_SUB_RESOURCE: Readonly<Record<string, CallbackKind>> = { call: 'verify_call', voice: 'voice', bulk_sms: 'bulk_sms', mo_sms: 'inbound_sms' };

/**
 * What a callback is about. An SMS delivery report (`sms_status`) and an SMS verification
 * (`verify_sms`) share `sub_resource: 'sms'`; the verification carries `verify`. A payload of no
 * known family (a product added later) is `unknown`: keep a branch for it.
 *
 * @example
 * ```ts
 * import { callbackKind, type CallbackPayload } from '@x/webhooks';
 *
 * function route(payload: CallbackPayload) {
 *   switch (callbackKind(payload)) {
 *     case 'sms_status': return 'delivery receipt';
 *     case 'inbound_sms': return 'a reply';
 *     default: return 'something else';
 *   }
 * }
 * ```
 */
export function callbackKind(payload: CallbackPayload | object): CallbackKind | 'unknown' {
  if (!isObject(payload)) return 'unknown';
  const { sub_resource: sub, status, event, state } = payload;
  if (sub === undefined && status === undefined) {
    if (typeof event === 'string') return 'voice_event';
    if (typeof state === 'string') return 'verify_api';
    return 'unknown';
  }
  if (sub === 'sms') return isObject(payload.verify) ? 'verify_sms' : 'sms_status';
  return (typeof sub === 'string' && Object.hasOwn(BY_SUB_RESOURCE, sub) && BY_SUB_RESOURCE[sub]) || 'unknown';
}

/**
 * Whether a callback is of `kind`, narrowing its type: `if (isCallbackKind(payload, 'verify_sms')) payload.verify.code_state`.
 *
 * @example
 * ```ts
 * import { CODE_STATE, isCallbackKind, type CallbackPayload } from '@x/webhooks';
 *
 * function onCallback(payload: CallbackPayload) {
 *   if (isCallbackKind(payload, 'verify_sms') && payload.verify.code_state === CODE_STATE.VALID) grant();
 * }
 * ```
 */
export function isCallbackKind<K extends CallbackKind>(payload: CallbackPayload | object, kind: K): payload is CallbackKinds[K] {
  return callbackKind(payload) === kind;
}

/**
 * An SMS or voice verification (`verify_sms` or `verify_call`).
 *
 * @example
 * ```ts
 * import { isVerifyCallback, type CallbackPayload } from '@x/webhooks';
 *
 * function onCallback(payload: CallbackPayload) {
 *   if (isVerifyCallback(payload)) log(payload.verify.code_state);
 * }
 * ```
 */
export const isVerifyCallback = (p: CallbackPayload): p is VerifyCallback => isCallbackKind(p, 'verify_sms') || isCallbackKind(p, 'verify_call');
/**
 * Narrows a callback to a Voice status callback, kind `voice`.
 *
 * @example
 * ```ts
 * import { isVoiceCallback, type CallbackPayload } from '@x/webhooks';
 *
 * function onCallback(payload: CallbackPayload) {
 *   if (isVoiceCallback(payload)) log(payload.reference_id, payload.status.code);
 * }
 * ```
 */
export const isVoiceCallback = (p: CallbackPayload): p is VoiceCallback => isCallbackKind(p, 'voice');
/**
 * Narrows a callback to a v2 Voice event, kind `voice_event`.
 *
 * @example
 * ```ts
 * import { isVoiceEvent, type CallbackPayload } from '@x/webhooks';
 *
 * function onCallback(payload: CallbackPayload) {
 *   if (isVoiceEvent(payload)) log(payload.event);
 * }
 * ```
 */
export const isVoiceEvent = (p: CallbackPayload): p is VoiceEvent => isCallbackKind(p, 'voice_event');
/**
 * Narrows a callback to an inbound SMS (MO), kind `inbound_sms`.
 *
 * @example
 * ```ts
 * import { isInboundSms, type CallbackPayload } from '@x/webhooks';
 *
 * function onCallback(payload: CallbackPayload) {
 *   if (isInboundSms(payload)) log(payload.user_response.phone_number, payload.user_response.mo_message);
 * }
 * ```
 */
export const isInboundSms = (p: CallbackPayload): p is InboundSmsCallback => isCallbackKind(p, 'inbound_sms');

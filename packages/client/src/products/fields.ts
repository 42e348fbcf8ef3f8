// The form fields several REST products share (messaging, verify, voice, PhoneID), validated and
// written in the service's names.
import { ACCOUNT_LIFECYCLE_EVENTS, MESSAGE_TYPES, type AccountLifecycleEvent, type MessageType } from '@x/service/request';
import { ValidationError } from '../errors.js';
import * as v from '../validate.js';

/** Parameters every product takes. */
export interface CommonParams {
  /** Digits with the country code; "+", spaces, dashes, dots and parentheses are removed. */
  phoneNumber: string;
  accountLifecycleEvent?: AccountLifecycleEvent | undefined;
  /** The end user's IP address. */
  originatingIp?: string | undefined;
  /** Your id, echoed in status and callbacks. */
  externalId?: string | undefined;
  /** Overrides the account's callback URL for this request. */
  callbackUrl?: string | undefined;
  /** Escape hatch: more form fields, sent as given (snake_case names). */
  extra?: Record<string, string> | undefined;
}

/** India DLT registration ids (at most 40 characters each). */
export interface DltParams {
  dltTemplateId?: string | undefined;
  dltEntityId?: string | undefined;
}

/** The message of an SMS or a call: text and type. */
export function content(p: { message: string; messageType: MessageType }, maxParts = 0) {
  return { message: v.smsParts(v.text(p.message, 'message', 1600), maxParts), message_type: v.oneOf(p.messageType, 'messageType', MESSAGE_TYPES) };
}

export const senderId = (value: string | undefined) => v.optional(value, (id) => v.maxLength(id, 'senderId', 20));

export function dlt(p: DltParams) {
  return {
    dlt_template_id: v.optional(p.dltTemplateId, (x) => v.maxLength(x, 'dltTemplateId', 40)),
    dlt_entity_id: v.optional(p.dltEntityId, (x) => v.maxLength(x, 'dltEntityId', 40)),
  };
}

/** The form fields every product shares, validated, in the service's names. */
export function common(p: CommonParams | Omit<CommonParams, 'phoneNumber'>, withPhone: boolean): Record<string, string | undefined> {
  if (!p || typeof p !== 'object') throw new ValidationError('params', 'must be an object, e.g. { phoneNumber, ... }.');
  // Written field by field into one object (spreading small objects costs V8 a slow path per call).
  const fields: Record<string, string | undefined> = p.extra ? { ...p.extra } : {};
  if (withPhone) fields.phone_number = v.phoneNumber((p as CommonParams).phoneNumber);
  fields.account_lifecycle_event = v.optional(p.accountLifecycleEvent, (x) => v.oneOf(x, 'accountLifecycleEvent', ACCOUNT_LIFECYCLE_EVENTS));
  fields.originating_ip = p.originatingIp;
  fields.external_id = v.optional(p.externalId, (x) => v.maxLength(x, 'externalId', 128));
  fields.callback_url = 'callbackUrl' in p && p.callbackUrl !== undefined ? v.url(p.callbackUrl, 'callbackUrl') : undefined;
  return fields;
}

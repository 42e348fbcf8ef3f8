import { ACCOUNT_LIFECYCLE_EVENTS, MESSAGE_TYPES, USE_CASE_CODES } from '@x/service/request';
import { isHttpUrl, targetsControl } from './url.js';

/** A parameter error in both code families: positive (Messaging, Voice, PhoneID) and negative (Verify). */
export interface ParamError {
  positive: number;
  negative: number;
  description: string;
}

export type Params = Record<string, string | undefined>;

const missing = (name: string, positive: number): ParamError => ({
  positive, negative: -10001, description: `Missing required parameter ${name}.`,
});
const invalid = (name: string, positive: number): ParamError => ({
  positive, negative: -10001, description: `Invalid value for parameter ${name}.`,
});

// The rules below are also the OpenAPI document's request schemas (openapi/schemas.ts builds its
// patterns and limits from these constants), so the document admits what the emulator accepts.
export const PHONE = /^\d{8,15}$/;
export const REFERENCE_ID = /^[0-9A-Fa-f]{32}$/;
export const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
/** An IPv6 address as the service checks it: hexadecimal digits, colons and dots, at least one colon, {@link IPV6_LENGTH} long. */
export const IPV6 = /^[0-9A-Fa-f.]*:[0-9A-Fa-f:.]*$/;
export const IPV6_LENGTH = { min: 2, max: 45 } as const;
export const VERIFY_CODE = /^\d{3,7}$/;
/** The code a user entered, checked by GET /v1/verify/{reference_id}?verify_code=. */
export const ENTERED_CODE = /^\d{1,10}$/;
/** A language tag as Verify takes it: `en-US`. */
export const LANGUAGE = /^[a-z]{2}-[A-Z]{2}$/;
export const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;
/** Where Verify puts the code in a template or a spoken text. */
export const CODE_PLACEHOLDER = '$$CODE$$';
/** The longest message, template or spoken text (characters). */
export const MAX_TEXT = 1600;
export const MAX_SENDER_ID = 20;
/** The longest id a request carries (external_id, device_id, account_id, session_id, a bulk recipient's id). */
export const MAX_ID = 128;
export const MAX_PROMPT = 2000;
export const PROMPT_DIGIT = /^\d$/;
/** The Verify API: the code in `security_factor`, an `external_id`, a `message_template`'s name, the methods of one policy. */
export const SECURITY_FACTOR = /^\d{3,10}$/;
export const VERIFY_API_EXTERNAL_ID = /^[\x20-\x7e]{1,100}$/;
export const TEMPLATE_NAME = /^[a-z_]+$/;
export const VERIFY_API_MAX_METHODS = 3;
/** The most recipients of one Bulk SMS request (service.md §13). */
export const BULK_MAX_RECIPIENTS = 1000;
/** Voice Verify's `pressx` values. */
export const PRESSX_VALUES = ['1', '0', 'true', 'false'];
/** Voice Verify's `call_forward_action` (any case). */
export const CALL_FORWARD_ACTIONS = ['block', 'flag'];
/** The service's booleans in a form field. */
export const FORM_BOOLEANS = ['true', 'false'];
export const VOICES = ['f-zh-HK', 'f-zh-CN', 'f-zh-TW', 'f-da-DK', 'f-nl-NL', 'f-en-AU', 'f-en-GB', 'f-en-US', 'f-en-CA', 'f-en-IN', 'f-fi-FI', 'f-fr-FR', 'f-fr-CA', 'f-it-IT', 'f-ja-JP', 'f-ko-KR', 'f-nb-NO', 'f-pl-PL', 'f-pt-BR', 'f-pt-PT', 'f-es-MX', 'f-es-ES'];

/** Is `value` one of `list`? (The service's lists are typed tuples; a request's field is any string.) */
export const oneOf = (list: readonly string[], value: string) => list.includes(value);

/** More than `max` characters (code points)? */
const longerThan = (text: string, max: number) => [...text].length > max;

const isIpv6 = (value: string) => value.length >= IPV6_LENGTH.min && value.length <= IPV6_LENGTH.max && IPV6.test(value);

/** Checks shared by every product; the first failing rule wins. */
const common = (p: Params): ParamError | undefined => (p.phone_number === undefined || p.phone_number === '' ? missing('phone_number', 12000) : optionalCommon(p));

/** The shared checks with `phone_number` optional (checked when given). */
function optionalCommon(p: Params): ParamError | undefined {
  if (p.phone_number !== undefined && !PHONE.test(p.phone_number)) return invalid('phone_number', 11000);
  if (p.account_lifecycle_event !== undefined && !oneOf(ACCOUNT_LIFECYCLE_EVENTS, p.account_lifecycle_event)) return invalid('account_lifecycle_event', 11003);
  // A callback to the emulator's own control routes could reset it or add faults: refused as invalid.
  if (p.callback_url !== undefined && (!isHttpUrl(p.callback_url) || targetsControl(p.callback_url))) return invalid('callback_url', 11004);
  if (p.originating_ip !== undefined && !IPV4.test(p.originating_ip) && !isIpv6(p.originating_ip)) return invalid('originating_ip', 11010);
  if (p.sender_id !== undefined && (p.sender_id === '' || longerThan(p.sender_id, MAX_SENDER_ID))) return invalid('sender_id', 11013);
  if (p.external_id !== undefined && (p.external_id === '' || longerThan(p.external_id, MAX_ID))) return invalid('external_id', 11016);
  return undefined;
}

function messageAndType(p: Params): ParamError | undefined {
  if (p.message === undefined || p.message === '') return missing('message', 12009);
  if (longerThan(p.message, MAX_TEXT)) return invalid('message', 11009);
  if (p.message_type === undefined || p.message_type === '') return missing('message_type', 12017);
  if (!oneOf(MESSAGE_TYPES, p.message_type)) return invalid('message_type', 11017);
  return undefined;
}

export const validateMessaging = (p: Params) => common(p) ?? messageAndType(p);

export function validateVoice(p: Params): ParamError | undefined {
  return common(p) ?? messageAndType(p) ?? (p.voice !== undefined && !VOICES.includes(p.voice) ? invalid('voice', 11018) : undefined);
}

export function validatePhoneId(p: Params): ParamError | undefined {
  return common(p);
}

export function validateVerify(p: Params): ParamError | undefined {
  const error = common(p);
  if (error) return error;
  if (p.verify_code !== undefined && !VERIFY_CODE.test(p.verify_code)) return invalid('verify_code', 11000);
  if (p.template !== undefined) {
    if (!p.template.includes(CODE_PLACEHOLDER)) return { positive: 11000, negative: -10001, description: 'Invalid value for parameter template: it must contain $$CODE$$.' };
    if (longerThan(p.template, MAX_TEXT)) return invalid('template', 11000);
  }
  if (p.language !== undefined && !LANGUAGE.test(p.language)) return invalid('language', 11000);
  if (p.ucid !== undefined && !oneOf(USE_CASE_CODES, p.ucid)) return invalid('ucid', 11000);
  if (p.is_primary !== undefined && !FORM_BOOLEANS.includes(p.is_primary)) return invalid('is_primary', 11000);
  return undefined;
}

/** Voice Verify (service.md §6.2): the SMS Verify rules for code, language and ucid, plus the call's own parameters. */
export function validateVoiceVerify(p: Params): ParamError | undefined {
  const error = common(p);
  if (error) return error;
  if (p.verify_code !== undefined && !VERIFY_CODE.test(p.verify_code)) return invalid('verify_code', 11000);
  const text = p.tts_message ?? p.template;
  const textName = p.tts_message !== undefined ? 'tts_message' : 'template';
  if (text !== undefined) {
    if (!text.includes(CODE_PLACEHOLDER)) return { positive: 11000, negative: -10001, description: `Invalid value for parameter ${textName}: it must contain $$CODE$$, where the code is read.` };
    if (longerThan(text, MAX_TEXT)) return invalid(textName, 11000);
  }
  if (p.language !== undefined && !LANGUAGE.test(p.language)) return invalid('language', 11000);
  if (p.ucid !== undefined && !oneOf(USE_CASE_CODES, p.ucid)) return invalid('ucid', 11000);
  if (p.call_forward_action !== undefined && !CALL_FORWARD_ACTIONS.includes(p.call_forward_action.toLowerCase())) return invalid('call_forward_action', 11000);
  if ((p.prompt_message === undefined) !== (p.prompt_digit === undefined)) return { positive: 11000, negative: -10001, description: 'prompt_message and prompt_digit go together.' };
  if (p.prompt_message !== undefined && (p.prompt_message === '' || longerThan(p.prompt_message, MAX_PROMPT))) return invalid('prompt_message', 11000);
  if (p.prompt_digit !== undefined && !PROMPT_DIGIT.test(p.prompt_digit)) return invalid('prompt_digit', 11000);
  if (p.pressx !== undefined && !PRESSX_VALUES.includes(p.pressx)) return invalid('pressx', 11000);
  const pressx = p.pressx === '1' || p.pressx === 'true';
  if (p.language !== undefined && (p.prompt_message !== undefined || pressx)) return { positive: 11000, negative: -10001, description: 'language cannot be combined with prompt_message or pressx.' };
  if (pressx && text !== undefined) return { positive: 11000, negative: -10001, description: `pressx cannot be combined with ${textName}.` };
  if (p.caller_id !== undefined && !PHONE.test(p.caller_id)) return invalid('caller_id', 11000);
  if (p.redial !== undefined && p.redial !== 'true' && p.redial !== 'false') return invalid('redial', 11000);
  return undefined;
}

/** Bulk SMS (service.md §9): `recipients` as "number[:id],number[:id],..." (at most 1000), `template`, optional ucid and session_id. */
export function validateBulkSms(p: Params, maxRecipients: number): ParamError | { recipients: Array<{ phoneNumber: string; id: string | null }> } {
  if (p.recipients === undefined || p.recipients === '') return missing('recipients', 12000);
  const entries = p.recipients.split(',');
  if (entries.length > maxRecipients) return { positive: 11000, negative: -10001, description: `Invalid value for parameter recipients: at most ${maxRecipients} numbers, got ${entries.length}.` };
  const recipients: Array<{ phoneNumber: string; id: string | null }> = [];
  for (const [i, entry] of entries.entries()) {
    const colon = entry.indexOf(':');
    const phoneNumber = (colon < 0 ? entry : entry.slice(0, colon)).trim();
    const id = colon < 0 ? null : entry.slice(colon + 1).trim();
    if (!PHONE.test(phoneNumber)) return { positive: 11000, negative: -10001, description: `Invalid value for parameter recipients: entry ${i + 1} is not a number with its country code ("number" or "number:id").` };
    if (id !== null && (id === '' || longerThan(id, MAX_ID))) return { positive: 11000, negative: -10001, description: `Invalid value for parameter recipients: the id of entry ${i + 1} must be 1 to 128 characters.` };
    recipients.push({ phoneNumber, id });
  }
  if (p.template === undefined || p.template === '') return missing('template', 12009);
  if (longerThan(p.template, MAX_TEXT)) return invalid('template', 11009);
  if (p.ucid !== undefined && !oneOf(USE_CASE_CODES, p.ucid)) return invalid('ucid', 11000);
  if (p.session_id !== undefined && (p.session_id === '' || longerThan(p.session_id, MAX_ID))) return invalid('session_id', 11000);
  return { recipients };
}

/** Score (service.md §7.1) and Intelligence (§4.2): the shared checks, `account_lifecycle_event` required, the risk inputs. */
export const validateRisk = (p: Params): ParamError | undefined => common(p) ?? riskInputs(p);

/** Email Intelligence (service.md §7.3): `email_address` and `account_lifecycle_event` required, `phone_number` optional. */
export const validateEmailRisk = (p: Params): ParamError | undefined =>
  p.email_address === undefined || p.email_address === '' ? missing('email_address', 12003) : (optionalCommon(p) ?? riskInputs(p));

function riskInputs(p: Params): ParamError | undefined {
  if (p.account_lifecycle_event === undefined || p.account_lifecycle_event === '') return missing('account_lifecycle_event', 12003);
  if (p.email_address !== undefined && !EMAIL.test(p.email_address)) return invalid('email_address', 11007);
  if (p.device_id !== undefined && (p.device_id === '' || longerThan(p.device_id, MAX_ID))) return invalid('device_id', 11006);
  if (p.account_id !== undefined && (p.account_id === '' || longerThan(p.account_id, MAX_ID))) return invalid('account_id', 11002);
  return undefined;
}

// Types of the service's requests and answers, from the service reference.
import type { AdditionalInfo, CodeState, ServiceError, TransactionStatus } from '@x/service';
import type { AccountLifecycleEvent, MessageType, UseCaseCode } from '@x/service/request';
import type { PhoneIdAddonSections, PhoneIdAddons, PhoneIdConsent } from './products/phone-id-addons.js';
import type { VoiceVerifyResponse } from './products/voice-verify.js';

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

export interface SendSmsParams extends CommonParams, DltParams {
  message: string;
  messageType: MessageType;
  /** At most 20 characters; must be allow-listed on the account. */
  senderId?: string | undefined;
}

export interface VerifySmsParams extends CommonParams, DltParams {
  /** 3 to 7 digits; the service generates 7 digits when omitted. */
  verifyCode?: string | undefined;
  /** Message text containing `$$CODE$$`. */
  template?: string | undefined;
  /** Locale of the predefined template, `xx-XX`. */
  language?: string | undefined;
  senderId?: string | undefined;
  ucid?: UseCaseCode | undefined;
  isPrimary?: boolean | undefined;
  /** Payment verification: both or neither, at most 40 characters each (`$$AMOUNT$$`, `$$PAYEE$$` in the template). */
  transactionAmount?: string | undefined;
  transactionPayee?: string | undefined;
  /** Only when SIM Swap is enabled on the account. */
  simSwapCheck?: boolean | undefined;
}

export interface VoiceCallParams extends CommonParams {
  message: string;
  messageType: MessageType;
  /** e.g. `f-en-US` (default). */
  voice?: string | undefined;
  callerId?: string | undefined;
}

export interface PhoneIdParams extends Omit<CommonParams, 'phoneNumber' | 'callbackUrl'> {
  /** `json` (default) or `form`. Add-ons and consent need JSON. */
  encoding?: 'json' | 'form' | undefined;
  /** Identity attributes, e.g. `{ contact: {} }`; sent as JSON. */
  addons?: PhoneIdAddons | undefined;
  /** Required with `contact_plus` and `call_forward_detection`. */
  consent?: PhoneIdConsent | undefined;
}

export interface SmsResponse {
  reference_id: string;
  external_id?: string | null;
  status: TransactionStatus;
  additional_info?: AdditionalInfo;
}

export interface VerifyResponse {
  reference_id: string;
  resource_uri?: string;
  sub_resource: 'sms';
  errors: ServiceError[];
  status: TransactionStatus;
  verify: { code_state: CodeState; code_entered: string | null };
  additional_info?: AdditionalInfo;
}

/** What `verify.status` and `verify.check` answer: an SMS or a call transaction, told apart by `sub_resource`. */
export type VerifyStatusResponse = VerifyResponse | VoiceVerifyResponse;

export interface VoiceResponse {
  reference_id: string;
  external_id?: string | null;
  status: TransactionStatus;
  voice?: { user_input: string | null; caller_id: string | null };
}

/** The fields every PhoneID answer has. */
export interface PhoneIdBase {
  reference_id: string;
  external_id?: string | null;
  status: TransactionStatus;
  phone_type: { code: string; description: string };
  numbering: {
    original: { complete_phone_number: string; country_code: string | null; phone_number: string };
    cleansing?: Record<'call' | 'sms', { country_code: string | null; phone_number: string; cleansed_code: number; min_length: number | null; max_length: number | null }>;
  };
  location?: {
    city: string | null;
    state: string | null;
    zip: string | null;
    metro_code: string | null;
    county: string | null;
    country: { name: string | null; iso2: string | null; iso3: string | null };
    coordinates: { latitude: number | null; longitude: number | null };
    time_zone: { name: string | null; utc_offset_min: string | null; utc_offset_max: string | null };
  };
  carrier?: { name: string | null };
  blocklisting?: { blocked: boolean; block_code: number; block_description: string };
}

/** `phoneId.lookup`: the base fields plus one section per requested add-on. */
export interface PhoneIdResponse extends PhoneIdBase, PhoneIdAddonSections {
  [field: string]: unknown;
}

/** What error bodies may carry, in either code family. */
export interface ServiceErrorBody {
  reference_id?: string;
  errors?: ServiceError[];
  status?: Partial<TransactionStatus>;
  signature_string?: string;
}

/** Every successful call answers with the parsed body and the HTTP details. */
export interface ApiResponse<T> {
  data: T;
  status: number;
  headers: Headers;
}

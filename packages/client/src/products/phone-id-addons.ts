// PhoneID add-ons ("identity attributes", service.md §4.3): what to ask for in `addons`, and the
// section each one adds to the answer, each with its own status (2800 success ... 2811 timeout).
import { ValidationError } from '../errors.js';
import * as v from '../validate.js';

type Empty = Record<string, never>;

/** Add-ons for `phoneId.lookup`. Every key but `contact` must be enabled on the account. */
export interface PhoneIdAddons {
  contact?: Empty | undefined;
  /** Deprecated by the service; needs `consent`. */
  contact_plus?: { billing_postal_code: string } | undefined;
  /** Scores (0-100) how well the given details match the number's subscriber. */
  contact_match?: { first_name?: string | undefined; last_name?: string | undefined; address?: string | undefined; city?: string | undefined; postal_code?: string | undefined; state?: string | undefined; country?: string | undefined } | undefined;
  /** `last_verified` (RFC 3339): adds whether the number was recycled since. */
  number_deactivation?: { last_verified?: string | undefined } | undefined;
  subscriber_status?: Empty | undefined;
  sim_swap?: Empty | undefined;
  porting_status?: Empty | undefined;
  /** US numbers, ports in the last `past_x_days` days. */
  porting_history?: { past_x_days?: number | undefined } | undefined;
  /** Needs `consent`. */
  call_forward_detection?: Empty | undefined;
  /** Custom threshold keys are set per account and not documented. */
  age_verify?: Record<string, unknown> | undefined;
  breached_data?: Record<string, unknown> | undefined;
  device_info?: Empty | undefined;
}

export type PhoneIdAddonName = keyof PhoneIdAddons;

/** `method` 1 unless told otherwise; `timestamp` RFC 3339. */
export interface PhoneIdConsent {
  method: number;
  timestamp?: string | undefined;
}

/** 2800 success, 2801 invalid parameter, 2802 unavailable, 2803 out of coverage, 2804 not applicable, 2805 no information, 2806 not enabled, 2807 some parameters invalid, 2811 timeout. */
export interface AddonStatus {
  code: number;
  description: string;
}

type Section<T> = Partial<T> & { status: AddonStatus };

export interface ContactFields {
  first_name: string | null;
  last_name: string | null;
  address1: string | null;
  address2: string | null;
  address3: string | null;
  address4: string | null;
  city: string | null;
  state_province: string | null;
  zip_postal_code: string | null;
  country: string | null;
  email_address: string | null;
  input_used: string | null;
}

/** The sections add-ons add to a PhoneID answer (field names of the current documentation). */
export interface PhoneIdAddonSections {
  contact?: Section<ContactFields>;
  contact_plus?: Section<ContactFields>;
  /** Scores 0-100; 90 and more is a pass; -1 means unavailable. */
  contact_match?: Section<{ first_name_score: number; last_name_score: number; address_score: number }>;
  /** (The 2019 OpenAPI copy named these `last_carrier_name`, `last_deact_date`.) */
  number_deactivation?: Section<{ carrier_name: string | null; last_deactivated: string | null; tracking_since: string | null; recycled_since_last_verification: string | null }>;
  subscriber_status?: Section<{
    account_type: 'individual' | 'business' | 'government' | 'other' | (string & {});
    account_tenure_min: number | null;
    account_tenure_max: number | null;
    primary_account_holder: string | null;
    account_status: 'active' | 'suspended' | 'deactivated' | (string & {});
    contract_type: 'postpaid' | 'prepaid' | (string & {});
    account_activation_date: string | null;
  }>;
  /** risk_indicator: 1 none (> 15 days), 2 3-14 days, 3 within 72 h, 4 the same day. */
  sim_swap?: Section<{ swap_date: string | null; swap_time: string | null; risk_indicator: 1 | 2 | 3 | 4 }>;
  porting_status?: Section<{ mcc_current: string | null; mnc_current: string | null; ported: boolean }>;
  porting_history?: Section<{
    carrier_current: string | null;
    carrier_previous: string | null;
    mcc_carrier_current: string | null;
    mcc_carrier_previous: string | null;
    mnc_carrier_current: string | null;
    mnc_carrier_previous: string | null;
    phone_type_current: string | null;
    phone_type_previous: string | null;
    port_date: string | null;
    number_of_portings: string | null;
  }>;
  /** Values come as strings: "true", "conditional", "busy". */
  call_forward_detection?: Section<{ call_forward_enabled: string; call_forward_type: string | null; call_forward_condition: string | null }>;
  /** Fields not documented. */
  age_verify?: Section<Record<string, unknown>>;
  /** Fields not documented. */
  breached_data?: Section<Record<string, unknown>>;
  device_info?: Section<{ make: string | null; model: string | null; imei: string | null }>;
}

const NAMES: readonly PhoneIdAddonName[] = [
  'contact', 'contact_plus', 'contact_match', 'number_deactivation', 'subscriber_status', 'sim_swap', 'porting_status',
  'porting_history', 'call_forward_detection', 'age_verify', 'breached_data', 'device_info',
];
const NEEDS_CONSENT: readonly PhoneIdAddonName[] = ['contact_plus', 'call_forward_detection'];
const CONTACT_MATCH_FIELDS = ['first_name', 'last_name', 'address', 'city', 'postal_code', 'state', 'country'] as const;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

const noInputs = (value: unknown, field: string) => {
  if (Object.keys(v.record(value, field)).length > 0) throw new ValidationError(field, 'takes no parameters: pass {}.');
  return value as Empty;
};

const CHECKS: { [K in PhoneIdAddonName]-?: (value: unknown, field: string) => PhoneIdAddons[K] } = {
  contact: noInputs,
  contact_plus: (x, f) => ({ billing_postal_code: v.string(v.record(x, f).billing_postal_code, `${f}.billing_postal_code`) }),
  contact_match: (x, f) => {
    // A field given as undefined is not given (options typed for exactOptionalPropertyTypes).
    const given = Object.fromEntries(Object.entries(v.record<unknown>(x, f)).filter(([, value]) => value !== undefined));
    for (const key of Object.keys(given)) if (!(CONTACT_MATCH_FIELDS as readonly string[]).includes(key)) throw new ValidationError(`${f}.${key}`, `is not a contact_match field; use ${CONTACT_MATCH_FIELDS.join(', ')}.`);
    if (Object.keys(given).length === 0) throw new ValidationError(f, 'needs at least one detail to match, e.g. { last_name }.');
    for (const [key, value] of Object.entries(given)) v.string(value, `${f}.${key}`);
    return given as PhoneIdAddons['contact_match'];
  },
  number_deactivation: (x, f) => {
    const { last_verified } = v.record<unknown>(x, f);
    return last_verified === undefined ? {} : { last_verified: v.pattern(last_verified, `${f}.last_verified`, RFC3339, 'an RFC 3339 time, e.g. "2024-01-31T12:00:00Z"') };
  },
  subscriber_status: noInputs,
  sim_swap: noInputs,
  porting_status: noInputs,
  porting_history: (x, f) => {
    const { past_x_days } = v.record<unknown>(x, f);
    return past_x_days === undefined ? {} : { past_x_days: v.integer(past_x_days, `${f}.past_x_days`, 1, 3650) };
  },
  call_forward_detection: noInputs,
  age_verify: (x, f) => v.record(x, f),
  breached_data: (x, f) => v.record(x, f),
  device_info: noInputs,
};

/** Validates add-ons and consent; answers the JSON fields to send. */
export function addonFields(addons: PhoneIdAddons | undefined, consent: PhoneIdConsent | undefined): { addons?: PhoneIdAddons; consent?: PhoneIdConsent } {
  const checkedConsent = v.optional(consent, (c) => {
    v.record(c, 'consent');
    return {
      method: v.integer(c.method, 'consent.method', 1, 99),
      ...(c.timestamp !== undefined ? { timestamp: v.pattern(c.timestamp, 'consent.timestamp', RFC3339, 'an RFC 3339 time, e.g. "2024-01-31T12:00:00Z"') } : {}),
    };
  });
  if (addons === undefined) return checkedConsent ? { consent: checkedConsent } : {};
  const checked: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(v.record<unknown>(addons, 'addons'))) {
    if (value === undefined) continue;
    const check = CHECKS[name as PhoneIdAddonName];
    if (!(NAMES as readonly string[]).includes(name) || !check) throw new ValidationError(`addons.${name}`, `is not a known add-on; use ${NAMES.join(', ')} (others through client.request).`);
    if (NEEDS_CONSENT.includes(name as PhoneIdAddonName) && !checkedConsent) throw new ValidationError('consent', `is required with the ${name} add-on: pass { method: 1 } (and a timestamp) once the user agreed.`);
    checked[name] = check(value, `addons.${name}`);
  }
  return { addons: checked as PhoneIdAddons, ...(checkedConsent ? { consent: checkedConsent } : {}) };
}

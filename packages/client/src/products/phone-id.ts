// PhoneID: the POST lookup with add-ons (service.md §4.1, §4.3), and the variants on GET
// (service.md §4.2): standard, live and the legacy number deactivation.
import { USE_CASE_CODES } from '@x/service/request';
import type { Send } from '../routing.js';
import type { RequestOptions } from '../transport/index.js';
import type { ApiResponse } from '../types.js';
import type { ServiceError, TransactionStatus } from '@x/service';
import { ValidationError } from '../errors.js';
import { addonFields, type PhoneIdAddonSections, type PhoneIdAddons, type PhoneIdConsent } from './phone-id-addons.js';
import { common, type CommonParams } from './fields.js';
import type { UseCaseCode } from '@x/service/request';
import * as v from '../validate.js';

export interface PhoneIdParams extends Omit<CommonParams, 'phoneNumber' | 'callbackUrl'> {
  /** `json` (default) or `form`. Add-ons and consent need JSON. */
  encoding?: 'json' | 'form' | undefined;
  /** Identity attributes, e.g. `{ contact: {} }`; sent as JSON. */
  addons?: PhoneIdAddons | undefined;
  /** Required with `contact_plus` and `call_forward_detection`. */
  consent?: PhoneIdConsent | undefined;
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

/** The use case of the lookup; required by the service's examples for Live and number deactivation. */
export interface PhoneIdUseCase {
  ucid: UseCaseCode;
}

interface GetVariant extends PhoneIdBase {
  resource_uri?: string | null;
  errors: ServiceError[];
}

export interface PhoneIdStandardResponse extends GetVariant {
  sub_resource: 'standard';
}

export interface PhoneIdLiveResponse extends GetVariant {
  sub_resource: 'live';
  /** Enumerations are partly documented: values seen are listed. */
  live: {
    subscriber_status: 'ACTIVE' | 'DISCONNECTED' | (string & {}) | null;
    device_status: 'REACHABLE' | 'UNREACHABLE' | 'UNAVAILABLE' | (string & {}) | null;
    roaming: 'ROAMING' | 'NOT_ROAMING' | 'UNAVAILABLE' | (string & {}) | null;
    roaming_country: string | null;
    roaming_country_iso2: string | null;
  };
}

export interface PhoneIdDeactivationResponse extends GetVariant {
  sub_resource: 'number_deactivation';
  number_deactivation: { number?: string; carrier_name?: string | null; last_deactivated: string | null; [field: string]: unknown };
}

export interface PhoneIdOperations extends PhoneIdVariantOperations {
  /** POST /v1/phoneid/{phone_number}, JSON body (add-ons allowed). */
  lookup(phoneNumber: string, params?: PhoneIdParams, options?: RequestOptions): Promise<ApiResponse<PhoneIdResponse>>;
}

export interface PhoneIdVariantOperations {
  /** GET /v1/phoneid/standard/{phone_number}: type, carrier and location (legacy, still served). */
  standard(phoneNumber: string, options?: RequestOptions): Promise<ApiResponse<PhoneIdStandardResponse>>;
  /** GET /v1/phoneid/live/{phone_number}?ucid=: subscriber, handset and roaming status now. */
  live(phoneNumber: string, params: PhoneIdUseCase, options?: RequestOptions): Promise<ApiResponse<PhoneIdLiveResponse>>;
  /**
   * GET /v1/phoneid/number_deactivation/{phone_number}?ucid=: when the number was last deactivated.
   * @deprecated by the service: use `lookup(phoneNumber, { addons: { number_deactivation: {} } })`.
   */
  deactivation(phoneNumber: string, params: PhoneIdUseCase, options?: RequestOptions): Promise<ApiResponse<PhoneIdDeactivationResponse>>;
}

// Live and number deactivation: `ucid` is required (every example of the service's documentation
// sends it; two official SDKs require it).
const useCase = (p: PhoneIdUseCase) => ({ ucid: v.oneOf(v.params(p).ucid, 'ucid', USE_CASE_CODES) });

export const phoneId = (send: Send): PhoneIdOperations => ({
  // A lookup reads: retried like a GET.
  lookup: async (phone, p = {}, o) => {
    const path = `/v1/phoneid/${v.phoneNumber(phone)}`;
    const fields = common(p, false);
    if (p.encoding === 'form') {
      if (p.addons || p.consent) throw new ValidationError(p.addons ? 'addons' : 'consent', 'needs the JSON encoding (leave encoding unset, or set it to "json").');
      return send<PhoneIdResponse>({ host: 'rest', retry: 'idempotent', method: 'POST', path, form: fields }, o);
    }
    const json: Record<string, unknown> = addonFields(p.addons, p.consent);
    for (const [key, value] of Object.entries(fields)) json[key] = value;
    for (const key of Object.keys(json)) if (json[key] === undefined) delete json[key];
    return send<PhoneIdResponse>({ host: 'rest', retry: 'idempotent', method: 'POST', path, json }, o);
  },
  standard: async (phone, o) => send<PhoneIdStandardResponse>({ host: 'rest', retry: 'idempotent', method: 'GET', path: `/v1/phoneid/standard/${v.phoneNumber(phone)}` }, o),
  live: async (phone, p, o) =>
    send<PhoneIdLiveResponse>({ host: 'rest', retry: 'idempotent', method: 'GET', path: `/v1/phoneid/live/${v.phoneNumber(phone)}`, query: useCase(p) }, o),
  // GET, as the older pages and the Node SDK (service.md §4.2, §18: one newer legacy page says POST).
  deactivation: async (phone, p, o) =>
    send<PhoneIdDeactivationResponse>({ host: 'rest', retry: 'idempotent', method: 'GET', path: `/v1/phoneid/number_deactivation/${v.phoneNumber(phone)}`, query: useCase(p) }, o),
});

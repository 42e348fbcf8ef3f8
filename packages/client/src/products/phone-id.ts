// PhoneID variants on GET (ref-next §3.1, §3.2): standard, live and the legacy number
// deactivation. The POST lookup with add-ons is `phoneId.lookup` (client.ts).
import { USE_CASE_CODES } from '@x/service/request';
import { NUMBER_DEACTIVATION, PHONEID_UCID_REQUIRED } from '../facts.js';
import type { Send } from '../routing.js';
import type { RequestOptions } from '../transport/index.js';
import type { ApiResponse, PhoneIdBase } from '../types.js';
import type { ServiceError } from '@x/service';
import type { UseCaseCode } from '@x/service/request';
import * as v from '../validate.js';

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

function useCase(p: PhoneIdUseCase): Record<string, string | undefined> {
  const ucid = v.params(p).ucid;
  return { ucid: PHONEID_UCID_REQUIRED || ucid !== undefined ? v.oneOf(ucid, 'ucid', USE_CASE_CODES) : undefined };
}

export const phoneIdVariants = (send: Send): PhoneIdVariantOperations => ({
  standard: async (phone, o) => send<PhoneIdStandardResponse>({ host: 'rest', retry: 'idempotent', method: 'GET', path: `/v1/phoneid/standard/${v.phoneNumber(phone)}` }, o),
  live: async (phone, p, o) =>
    send<PhoneIdLiveResponse>({ host: 'rest', retry: 'idempotent', method: 'GET', path: `/v1/phoneid/live/${v.phoneNumber(phone)}`, query: useCase(p) }, o),
  deactivation: async (phone, p, o) => {
    const path = `/v1/phoneid/number_deactivation/${v.phoneNumber(phone)}`;
    const fields = useCase(p);
    const request = NUMBER_DEACTIVATION.method === 'GET' ? { method: 'GET', query: fields } : { method: 'POST', form: fields };
    return send<PhoneIdDeactivationResponse>({ host: 'rest', retry: 'idempotent', path, ...request }, o);
  },
});

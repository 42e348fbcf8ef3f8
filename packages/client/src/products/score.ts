// Legacy Score: POST /v1/score/{phone_number} on the REST host (service.md §7.1). The service marks it
// deprecated in favour of Intelligence Cloud (`client.intelligence`).
import { ACCOUNT_LIFECYCLE_EVENTS } from '@x/service/request';
import type { Send } from '../routing.js';
import type { RequestOptions } from '../transport/index.js';
import type { ApiResponse } from '../types.js';
import type { PhoneIdBase } from './phone-id.js';
import type { TransactionStatus } from '@x/service';
import type { AccountLifecycleEvent } from '@x/service/request';
import * as v from '../validate.js';

/** Current scale: low, medium-low, medium, medium-high, high; older answers use very-low / very-high (service.md §7.2). */
export type RiskLevel = 'very-low' | 'low' | 'medium-low' | 'medium' | 'medium-high' | 'high' | 'very-high' | (string & {});
export type RiskRecommendation = 'allow' | 'flag' | 'block' | (string & {});

export interface RiskSection {
  level: RiskLevel;
  recommendation: RiskRecommendation;
  /** 0 (or 1, per source) to 1000: higher is riskier. */
  score: number;
}

/** Risk inputs shared by Score and Intelligence. */
export interface RiskParams {
  /** Required: the moment in the account's life being scored. */
  accountLifecycleEvent: AccountLifecycleEvent;
  /** Your id for this transaction, echoed in the answer. */
  externalId?: string | undefined;
  /** The end user's IP address. */
  originatingIp?: string | undefined;
  deviceId?: string | undefined;
  accountId?: string | undefined;
  emailAddress?: string | undefined;
}

export type ScoreParams = RiskParams;

export interface ScoreResponse {
  reference_id: string;
  external_id?: string | null;
  /** 300 complete, 301 partial. */
  status: TransactionStatus;
  numbering?: PhoneIdBase['numbering'];
  location?: PhoneIdBase['location'];
  phone_type?: PhoneIdBase['phone_type'];
  carrier?: { carrier_id?: string; name: string | null };
  /** block_code: 0 none, 1 the service, 2 your organisation, 3 a sub-organisation. */
  blocklisting?: { blocked: boolean; block_code: number; block_description: string };
  risk: RiskSection;
}

/** The risk fields in the service's names, validated. */
export function riskFields(p: RiskParams): Record<string, string | undefined> {
  v.params(p);
  return {
    account_lifecycle_event: v.oneOf(p.accountLifecycleEvent, 'accountLifecycleEvent', ACCOUNT_LIFECYCLE_EVENTS),
    external_id: v.optional(p.externalId, (x) => v.string(x, 'externalId')),
    originating_ip: v.optional(p.originatingIp, (x) => v.ip(x)),
    device_id: v.optional(p.deviceId, (x) => v.string(x, 'deviceId')),
    account_id: v.optional(p.accountId, (x) => v.string(x, 'accountId')),
    email_address: v.optional(p.emailAddress, (x) => v.email(x, 'emailAddress')),
  };
}

export interface ScoreOperations {
  /** POST /v1/score/{phone_number}: risk score of a number (legacy; deprecated by the service). */
  lookup(phoneNumber: string, params: ScoreParams, options?: RequestOptions): Promise<ApiResponse<ScoreResponse>>;
}

export const score = (send: Send): ScoreOperations => ({
  lookup: async (phone, p, o) =>
    send<ScoreResponse>({ host: 'rest', retry: 'idempotent', method: 'POST', path: `/v1/score/${v.phoneNumber(phone)}`, form: riskFields(p) }, o),
});

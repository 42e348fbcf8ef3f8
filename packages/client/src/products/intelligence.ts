// Intelligence Cloud: a risk recommendation for a phone number, on its own host with (usually) its
// own credentials (service.md §7.2).
import type { Send } from '../routing.js';
import type { RequestOptions } from '../transport/index.js';
import type { ApiResponse } from '../types.js';
import type { TransactionStatus } from '@x/service';
import * as v from '../validate.js';
import { riskFields, type RiskParams, type RiskSection } from './score.js';

export interface IntelligenceParams extends RiskParams {
  /** Digits with the country code; "+", spaces, dashes, dots and parentheses are removed. */
  phoneNumber: string;
}

/** Only `status` and `risk` are documented; the rest of the answer is kept as sent. */
export interface IntelligenceResponse {
  reference_id?: string;
  external_id?: string | null;
  /** 300 complete, 301 partial. */
  status: TransactionStatus;
  risk: Partial<RiskSection> & Pick<RiskSection, 'recommendation'>;
  [field: string]: unknown;
}

export interface IntelligenceOperations {
  /** POST /intelligence/phone on the Intelligence host: risk level and recommendation for a number. */
  phone(params: IntelligenceParams, options?: RequestOptions): Promise<ApiResponse<IntelligenceResponse>>;
}

export const intelligence = (send: Send): IntelligenceOperations => ({
  // service.md §7.2, §18: the official SDKs of 2026 (Node, Ruby, C#, tested against
  // the live service) send `POST /intelligence/phone` as a signed form with the product's `auth`
  // option; the getting-started page shows `POST /intelligence` with JSON and Basic. The SDKs' way.
  phone: async (p, o) =>
    send<IntelligenceResponse>({ host: 'intelligence', retry: 'idempotent', method: 'POST', path: '/intelligence/phone', form: { phone_number: v.phoneNumber(v.params(p).phoneNumber), ...riskFields(p) } }, o),
});

// Intelligence Cloud: a risk recommendation for a phone number or an email address, on its own host
// with (usually) its own credentials (service.md §7.2).
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

export interface EmailIntelligenceParams extends RiskParams {
  /** The address to assess, e.g. "user@example.com". */
  emailAddress: string;
  /** The end user's number, digits with the country code; "+", spaces, dashes, dots and parentheses are removed. */
  phoneNumber?: string | undefined;
}

/** The answer of Email Intelligence (the service's published schema, `postEmailIntResponse`). */
export interface EmailIntelligenceResponse {
  reference_id: string;
  external_id: string | null;
  /** 300 complete, 301 partial. */
  status: TransactionStatus;
  email_address_details?: {
    original?: { email_address: string; is_valid: boolean };
    cleansed?: { email_address: string; is_valid: boolean; username: string; domain: string };
    /** `gibberish_probability` from 0 to 1; `tag` is the plus-tag, if any. */
    cleansing_details?: { is_modified: boolean; gibberish_probability: number; tag: string | null };
    domain_details?: { general_info?: { registered_domain: string; tld: string; tld_type: 'general' | 'country-code' | (string & {}); is_disposable: boolean } };
  };
  intelligence_details?: {
    risk: RiskSection;
    /** Reason codes (their meanings are not published). */
    insights?: { category?: number[]; [identifier: string]: unknown };
  };
  [field: string]: unknown;
}

export interface IntelligenceOperations {
  /** POST /intelligence/phone on the Intelligence host: risk level and recommendation for a number. */
  phone(params: IntelligenceParams, options?: RequestOptions): Promise<ApiResponse<IntelligenceResponse>>;
  /**
   * POST /intelligence/email on the Intelligence host: validity, cleansing, domain facts and risk
   * of an email address at a moment of the account's life.
   *
   * @example
   * ```ts
   * import { createClient } from '@x/client';
   *
   * const client = createClient({ customerId, apiKey });
   * const { data } = await client.intelligence.email({ emailAddress: 'user@example.com', accountLifecycleEvent: 'create' });
   * log(data.intelligence_details?.risk.recommendation);
   * ```
   */
  email(params: EmailIntelligenceParams, options?: RequestOptions): Promise<ApiResponse<EmailIntelligenceResponse>>;
}

export const intelligence = (send: Send): IntelligenceOperations => ({
  // service.md §7.2, §18: the official SDKs of 2026 (Node, Ruby, C#, tested against
  // the live service) send `POST /intelligence/phone` as a signed form with the product's `auth`
  // option; the getting-started page shows `POST /intelligence` with JSON and Basic. The SDKs' way.
  phone: async (p, o) =>
    send<IntelligenceResponse>({ host: 'intelligence', retry: 'idempotent', method: 'POST', path: '/intelligence/phone', form: { phone_number: v.phoneNumber(v.params(p).phoneNumber), ...riskFields(p) } }, o),
  // service.md §7.3: the official Node client 5.2 sends Basic and a form, whatever the product's `auth`.
  email: async (p, o) =>
    send<EmailIntelligenceResponse>({ host: 'intelligence', auth: 'basic', retry: 'idempotent', method: 'POST', path: '/intelligence/email', form: { ...riskFields(p), email_address: v.email(p.emailAddress, 'emailAddress'), phone_number: v.optional(p.phoneNumber, v.phoneNumber) } }, o),
});

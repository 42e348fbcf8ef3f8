// Verify API (multi-channel verification) on its own host (service.md §8): create a verification
// with a policy of channels and fallbacks, read it, and finalize it with the user's code.
import type { VerificationState } from '@x/service';
import { ValidationError } from '../errors.js';
import { VERIFY_API } from '../facts.js';
import type { Send } from '../routing.js';
import type { RequestOptions, SendOptions } from '../transport/index.js';
import type { ApiResponse } from '../types.js';
import * as v from '../validate.js';

export type VerificationMethod = 'sms' | 'whatsapp' | 'viber' | 'rcs' | 'email' | 'silent' | 'push';

export interface VerificationStep {
  method: VerificationMethod;
  /** Seconds before the next method is tried: 30 to 300. Default 60 (email 120). */
  fallbackTime?: number | undefined;
}

export interface CreateVerificationParams {
  /** Needed unless every method of the policy is `email`. */
  phoneNumber?: string | undefined;
  /** Needed when the policy has `email`. */
  email?: string | undefined;
  /** Up to 3 methods in order; `silent` or `push` only first, and not both. Default: the account's routing, else SMS. */
  policy?: VerificationStep[] | undefined;
  /** Your own code, 3 to 10 digits. Default: the service makes one (6 digits). */
  securityFactor?: string | undefined;
  /** Name of a message template (lowercase letters and `_`) that exists for every method of the policy. */
  template?: string | undefined;
  /** Your id, at most 100 ASCII characters. */
  externalId?: string | undefined;
  /** Escape hatch: more top-level JSON fields, sent as given (snake_case names). */
  extra?: Record<string, unknown> | undefined;
}

export interface VerificationPolicyEntry {
  method: VerificationMethod | (string & {});
  fallback_time?: number;
}

export interface Verification {
  reference_id: string;
  state: VerificationState;
  recipient?: { phone_number?: string; email?: string };
  verification_policy?: VerificationPolicyEntry[];
  /** One entry per method tried: its own state and error code (e.g. `{ state: 'ONGOING', err_code: 3901 }`). */
  inner_methods?: Array<{ method?: string; state?: string; err_code?: number; [field: string]: unknown }>;
  /** For the Android SDK; expires after 5 minutes. */
  mobile_app_token?: string;
  device_registration?: unknown;
  /** 3001 "Message in progress" after create. */
  status?: { code: number; description: string };
  [field: string]: unknown;
}

/** 3900 verified; 3904 failed; 3909 wrong code or too many attempts; 3935 code expired. */
export interface FinalizeVerificationResponse {
  status: { code: number; description: string };
  [field: string]: unknown;
}

export interface VerifyApiOperations {
  /** POST /verification: starts a verification (sends a code). Never sent twice. */
  create(params: CreateVerificationParams, options?: SendOptions): Promise<ApiResponse<Verification>>;
  /** GET /verification/{reference_id}: state of the verification and of each method. */
  get(referenceId: string, options?: RequestOptions): Promise<ApiResponse<Verification>>;
  /** PATCH /verification/{reference_id}/state: submits the user's code; mandatory to end a verification. Sent with Basic. */
  finalize(referenceId: string, securityFactor: string, options?: RequestOptions): Promise<ApiResponse<FinalizeVerificationResponse>>;
}

const METHODS: readonly VerificationMethod[] = ['sms', 'whatsapp', 'viber', 'rcs', 'email', 'silent', 'push'];
const FIRST_ONLY: readonly VerificationMethod[] = ['silent', 'push'];
const securityFactor = (x: unknown) => v.pattern(x, 'securityFactor', VERIFY_API.securityFactorPattern, '3 to 10 digits');

function policy(steps: unknown): VerificationPolicyEntry[] {
  if (!Array.isArray(steps) || steps.length === 0 || steps.length > VERIFY_API.maxMethods) {
    throw new ValidationError('policy', `must list 1 to ${VERIFY_API.maxMethods} methods, e.g. [{ method: 'sms' }].`);
  }
  return steps.map((step: unknown, i) => {
    const s = v.record<unknown>(step, `policy[${i}]`);
    const method = v.oneOf(s.method, `policy[${i}].method`, METHODS);
    if (FIRST_ONLY.includes(method) && i > 0) throw new ValidationError(`policy[${i}].method`, `${method} must come first, before code methods; silent and push do not go together.`);
    const fallback = v.optional(s.fallbackTime, (x) => v.integer(x, `policy[${i}].fallbackTime`, VERIFY_API.fallbackMinSeconds, VERIFY_API.fallbackMaxSeconds));
    return fallback === undefined ? { method } : { method, fallback_time: fallback };
  });
}

function createBody(p: CreateVerificationParams): Record<string, unknown> {
  v.params(p);
  const steps = v.optional(p.policy, policy);
  const methods = steps?.map((s) => s.method) ?? ['sms'];
  const needsPhone = methods.some((m) => m !== 'email');
  if (needsPhone && p.phoneNumber === undefined) throw new ValidationError('phoneNumber', `is required for ${methods.filter((m) => m !== 'email').join(', ')}: digits with the country code.`);
  if (methods.includes('email') && p.email === undefined) throw new ValidationError('email', 'is required when the policy has the email method.');
  const recipient = {
    ...(p.phoneNumber !== undefined ? { phone_number: v.phoneNumber(p.phoneNumber) } : {}),
    ...(p.email !== undefined ? { email: v.email(p.email) } : {}),
  };
  const body: Record<string, unknown> = {
    ...(v.optional(p.extra, (x) => v.record<unknown>(x, 'extra')) ?? {}),
    recipient,
    ...(steps ? { verification_policy: steps } : {}),
    ...(p.securityFactor !== undefined ? { security_factor: securityFactor(p.securityFactor) } : {}),
    ...(p.template !== undefined ? { message_template: { name: v.pattern(p.template, 'template', /^[a-z_]+$/, 'a template name: lowercase letters and "_"') } } : {}),
    ...(p.externalId !== undefined ? { external_id: v.pattern(p.externalId, 'externalId', /^[\x20-\x7e]{1,100}$/, '1 to 100 printable ASCII characters') } : {}),
  };
  const size = new TextEncoder().encode(JSON.stringify(body)).length;
  if (size > VERIFY_API.maxPayloadBytes) throw new ValidationError('params', `make a body of ${size} bytes; the service takes at most ${VERIFY_API.maxPayloadBytes}.`);
  return body;
}

export const verifyApi = (send: Send): VerifyApiOperations => ({
  create: async (p, o) => send<Verification>({ host: 'verifyApi', retry: 'unsent', method: 'POST', path: '/verification', json: createBody(p) }, o),
  get: async (id, o) => send<Verification>({ host: 'verifyApi', retry: 'idempotent', method: 'GET', path: `/verification/${v.referenceId(id)}` }, o),
  // Submits an attempt: a lost answer must not turn into a second attempt. With Basic (service.md §8,
  // service.md §18): all three official SDKs do so, the docs allow Basic or Digest, and the
  // interface document signs bodies of POST only. Create and get follow the product's `auth` option.
  finalize: async (id, code, o) =>
    send<FinalizeVerificationResponse>(
      { host: 'verifyApi', auth: 'basic', retry: 'unsent', method: 'PATCH', path: `/verification/${v.referenceId(id)}/state`, json: { action: 'finalize', security_factor: securityFactor(code) } },
      o,
    ),
});

import type { VerifyFailure } from '@x/auth';
import { AUTH_CODES } from './codes.js';
import { json } from './respond.js';
import { statusOf, timestamp } from './status.js';
import type { ParamError } from './validate.js';

/**
 * The two error families of the service (reference §5.4): Messaging, Voice and PhoneID answer
 * positive 5-digit codes in `status.code`; SMS Verify answers negative codes in `errors[]` beside
 * a generic `status` (501 "Not authorized" for authentication failures, 500 otherwise).
 */
export type FamilyName = 'positive' | 'negative';

/** Conditions every product can answer, whatever its operations. */
export type Condition =
  | 'bad_request'
  | 'payload_too_large'
  | 'not_found'
  | 'method_not_allowed'
  | 'rate_limited'
  | 'unavailable'
  | 'internal_error'
  | 'unknown_reference'
  | 'invalid_reference';

type Text = (detail: string) => string;
interface Entry {
  http: number;
  positive: [code: number, text: Text];
  negative: [code: number, text: Text];
}
const fixed = (text: string): Text => () => text;

/**
 * The one table of these conditions in both families. Where the positive family documents no code
 * (unknown operation, method not allowed), the service's -4000x number of the condition is used
 * in `status.code`; a body that cannot be read is the family's generic 400 code (11000), with a
 * description that names the problem.
 */
const CONDITIONS: Record<Condition, Entry> = {
  bad_request: { http: 400, positive: [11000, fixed('Bad request')], negative: [-40006, fixed('Bad request')] },
  payload_too_large: { http: 413, positive: [11000, fixed('Payload too large')], negative: [-40006, fixed('Payload too large')] },
  not_found: { http: 404, positive: [-40004, fixed('Resource Not Found')], negative: [-40004, fixed('Resource Not Found')] },
  method_not_allowed: { http: 405, positive: [-40005, fixed('Method Not Allowed')], negative: [-40005, fixed('Method Not Allowed')] },
  rate_limited: { http: 429, positive: [10019, fixed('Rate Limit Exceeded')], negative: [-40007, fixed('Rate Limit Exceeded')] },
  unavailable: { http: 503, positive: [500, fixed('System Unavailable, please try again later')], negative: [-90001, fixed('System Unavailable, please try again later')] },
  internal_error: {
    http: 500,
    positive: [500, fixed('Transaction not attempted: the emulator failed on this request (its log has the error).')],
    negative: [-90001, fixed('Transaction not attempted: the emulator failed on this request (its log has the error).')],
  },
  unknown_reference: { http: 404, positive: [10017, fixed('Customer ID / Reference ID not found.')], negative: [-10001, fixed('CustomerID/ReferenceID not found')] },
  invalid_reference: {
    http: 400,
    positive: [11011, fixed('Invalid value for parameter reference_id.')],
    negative: [-10001, (id) => `Invalid Request: ReferenceID Parameter: ${id.slice(0, 64)}`],
  },
};

export interface FailOptions {
  /** Replaces the table's description. */
  description?: string;
  /** Fills the description of conditions that name a value (the reference id). */
  detail?: string;
  /** Replaces the table's HTTP status (a status fault: 500, 502, 503, 504). */
  status?: number;
  headers?: Record<string, string>;
  /** Fields added to the body (`reference_id`, `signature_string`). */
  extra?: Record<string, unknown>;
}

/** Builds every error answer of one family: a product module gets one and never picks codes itself. */
export interface ErrorFamily {
  readonly name: FamilyName;
  /** An error body in this family's shape. */
  body(code: number, description: string, extra?: Record<string, unknown>): Record<string, unknown>;
  /** This family's code of a pair. */
  code(pair: { positive: number; negative: number }): number;
  /** The answer to a condition of the table. */
  fail(condition: Condition, options?: FailOptions): Response;
  /** 400 for a parameter that failed validation. */
  param(error: ParamError, extra?: Record<string, unknown>): Response;
  /** 401 for a request that failed verification. */
  auth(reason: VerifyFailure, stringToSign?: string): Response;
}

export function errorFamily(name: FamilyName, now: () => number): ErrorFamily {
  const body = (code: number, description: string, extra: Record<string, unknown> = {}) => {
    const at = now();
    if (name === 'positive') return { ...extra, status: { code, description, updated_on: timestamp(at) } };
    // Authentication failures pair with 501 "Not authorized" (except the auth method, 500); the rest with 500.
    const statusCode = code <= -30000 && code > -40000 && code !== -30008 ? 501 : 500;
    return { ...extra, errors: [{ code, description }], status: statusOf(statusCode, at) };
  };
  const code = (pair: { positive: number; negative: number }) => (name === 'positive' ? pair.positive : pair.negative);
  return {
    name,
    body,
    code,
    fail(condition, options = {}) {
      const entry = CONDITIONS[condition];
      const [value, text] = entry[name];
      const description = options.description ?? text(options.detail ?? '');
      return json(options.status ?? entry.http, body(value, description, options.extra), options.headers);
    },
    param: (error, extra) => json(400, body(code(error), error.description, extra)),
    auth(reason, stringToSign) {
      const codes = AUTH_CODES[reason];
      return json(401, body(code(codes), codes.text, stringToSign !== undefined ? { signature_string: stringToSign } : {}));
    },
  };
}

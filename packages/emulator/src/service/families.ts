import type { VerifyFailure } from '@x/auth';
import { VERIFY_FAILURE_CODES, VERIFY_FAILURE_TEXTS } from '@x/service/failures';
import { describe, ERROR_TEXT, STATUS_TEXT } from './codes.js';
import { reply, type JournalContext } from './respond.js';
import { statusOf, timestamp } from './status.js';
import type { ParamError } from './validate.js';

/**
 * The error families of the service (service.md §12.4, service.md §8): Messaging, Voice, PhoneID, Score
 * and Intelligence answer positive 5-digit codes in `status.code`; the /v1/verify products and the
 * legacy PhoneID GETs answer negative codes in `errors[]` beside a generic `status` (501 "Not
 * authorized" for authentication failures, 500 otherwise); the Verify API answers its 3xxx codes
 * in `status.code`.
 */
export type FamilyName = 'positive' | 'negative' | 'verifyApi';

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

interface Entry {
  http: number;
  /** The code per family, and a detail added to its description (`$` = the value at fault). */
  codes: Record<FamilyName, [code: number, detail?: string]>;
}

const FAILED = 'the emulator failed on this request (its log has the error)';

/**
 * The one table of these conditions in the three families. Where a family documents no code
 * (unknown operation, method not allowed), the service's -4000x number of the condition is used
 * in `status.code`; a body that cannot be read is the family's generic 400 code (11000, -40006,
 * 3110), with a detail that names the problem. Descriptions come from codes.ts.
 */
const CONDITIONS: Record<Condition, Entry> = {
  bad_request: { http: 400, codes: { positive: [11000], negative: [-40006], verifyApi: [3110] } },
  payload_too_large: { http: 413, codes: { positive: [11000, 'payload too large'], negative: [-40006, 'payload too large'], verifyApi: [3116] } },
  not_found: { http: 404, codes: { positive: [-40004], negative: [-40004], verifyApi: [-40004] } },
  method_not_allowed: { http: 405, codes: { positive: [-40005], negative: [-40005], verifyApi: [-40005] } },
  rate_limited: { http: 429, codes: { positive: [10019], negative: [-40007], verifyApi: [3204] } },
  unavailable: { http: 503, codes: { positive: [500, 'System Unavailable, please try again later'], negative: [-90001], verifyApi: [3500] } },
  internal_error: { http: 500, codes: { positive: [500, FAILED], negative: [-90001, FAILED], verifyApi: [3500, FAILED] } },
  unknown_reference: { http: 404, codes: { positive: [10017], negative: [-10001, 'CustomerID/ReferenceID not found'], verifyApi: [-40004, 'no verification with this reference_id'] } },
  invalid_reference: { http: 400, codes: { positive: [11011], negative: [-10001, 'ReferenceID Parameter: $'], verifyApi: [3110, 'reference_id must be 32 hexadecimal characters, got $'] } },
};

export interface FailOptions {
  /** Said after the code's description (what went wrong, what to do). */
  description?: string;
  /** Fills the detail of conditions that name a value (the reference id). */
  detail?: string;
  /** Replaces the table's HTTP status (a status fault: 500, 502, 503, 504). */
  status?: number;
  headers?: Record<string, string>;
  /** Fields added to the body (`reference_id`, `signature_string`). */
  extra?: Record<string, unknown>;
}

/** Builds every error answer of one family: a product module gets one and never shapes error bodies itself. */
export interface ErrorFamily {
  readonly name: FamilyName;
  /** An error body in this family's shape; the description is the code's, with `detail` after it. */
  body(code: number, detail?: string, extra?: Record<string, unknown>): Record<string, unknown>;
  /** This family's code of a parameter error. */
  code(pair: { positive: number; negative: number; verifyApi?: number }): number;
  /** The answer to a condition of the table. */
  fail(c: JournalContext, condition: Condition, options?: FailOptions): Response;
  /** 400 for a parameter that failed validation (its description as given). */
  param(c: JournalContext, error: ParamError, extra?: Record<string, unknown>): Response;
  /** An answer with a code of this family: `http` status, the code's description and a detail. */
  error(c: JournalContext, http: number, code: number, detail?: string, extra?: Record<string, unknown>): Response;
  /** 401 for a request that failed verification. */
  auth(c: JournalContext, reason: VerifyFailure, stringToSign?: string): Response;
  /** An error fault's answer: any code, its description from the tables when known, else the one given (or a generic one). */
  injected(c: JournalContext, http: number, code: number, description: string | undefined, headers?: Record<string, string>): Response;
}

/** The description of an auth failure: the code's own text, then the precise reason when it differs. */
function authDescription(code: number, text: string): string {
  const own = describe(code);
  return own.toLowerCase() === text.toLowerCase() ? own : `${own}: ${text}`;
}

export function errorFamily(name: FamilyName, now: () => number): ErrorFamily {
  const shaped = (code: number, description: string, extra: Record<string, unknown> = {}) => {
    const at = now();
    if (name !== 'negative') return { ...extra, status: { code, description, updated_on: timestamp(at) } };
    // Authentication failures pair with 501 "Not authorized" (except the auth method, 500); the rest with 500.
    const statusCode = code <= -30000 && code > -40000 && code !== -30008 && code !== -30013 ? 501 : 500;
    return { ...extra, errors: [{ code, description }], status: statusOf(statusCode, at) };
  };
  const body = (code: number, detail?: string, extra?: Record<string, unknown>) => shaped(code, describe(code, detail), extra);
  const code = (pair: { positive: number; negative: number; verifyApi?: number }) => (name === 'negative' ? pair.negative : name === 'verifyApi' ? (pair.verifyApi ?? 3110) : pair.positive);
  return {
    name,
    body,
    code,
    fail(c, condition, options = {}) {
      const entry = CONDITIONS[condition];
      const [value, detail] = entry.codes[name];
      const filled = detail?.replace('$', (options.detail ?? '').slice(0, 64));
      const text = [filled, options.description].filter((part) => part !== undefined && part !== '').join(': ');
      return reply(c, options.status ?? entry.http, body(value, text || undefined, options.extra), options.headers);
    },
    param(c, error, extra) {
      const value = code(error);
      // Positive texts already start with the code's text ("Invalid value for parameter x").
      const description = name === 'positive' || error.description.startsWith(describe(value)) ? error.description : describe(value, error.description);
      return reply(c, 400, shaped(value, description, extra));
    },
    error: (c, http, value, detail, extra) => reply(c, http, body(value, detail, extra)),
    injected(c, http, value, description, headers) {
      const known = STATUS_TEXT[value] ?? ERROR_TEXT[value];
      const text = known !== undefined ? describe(value, description) : (description ?? 'Error injected by the emulator (fault rule)');
      return reply(c, http, shaped(value, text), headers);
    },
    auth(c, reason, stringToSign) {
      const codes = VERIFY_FAILURE_CODES[reason];
      const value = name === 'verifyApi' ? 3400 : code(codes);
      return reply(c, 401, shaped(value, authDescription(value, VERIFY_FAILURE_TEXTS[reason]), stringToSign !== undefined ? { signature_string: stringToSign } : {}));
    },
  };
}

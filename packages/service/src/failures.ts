// The one table of the ways a signed request fails verification: what the verifier answers
// (HTTP status, message), what the service answers (its code in both families, its text), and
// what a client should do about it (advice). The verifier (@x/auth), the adapters, the emulator
// and the client all read it; nothing else keeps a table keyed on these reasons.

/** What the failure table says about one reason. */
export interface VerifyFailureFacts {
  /** The HTTP status of the answer (the service answers 401 for every one). */
  readonly status: 401;
  /** The verifier's sentence, for logs and error bodies; never contains a secret. */
  readonly message: string;
  /** What the caller should do when the service reports this reason. */
  readonly advice: string;
  /** The code in `status.code` of Messaging, Voice, PhoneID and Score (service.md §12.2). */
  readonly positive: number;
  /** The code in `errors[].code` of SMS Verify, Voice Verify and status lookups (service.md §12.3). */
  readonly negative: number;
  /** The service's own description of the code. */
  readonly text: string;
  /**
   * The codes this reason borrows from the reason they name (10008 "Invalid Signature" also
   * answers a missing header): a code read back from the service maps to the reason it names.
   */
  readonly borrows?: readonly ('positive' | 'negative')[];
  /** Other codes the service documents for this reason (positive family). */
  readonly alsoPositive?: readonly number[];
}

/** Every reason a signed request fails verification, in the order the verifier checks. */
export const VERIFY_FAILURE_REASONS = [
  'missing_authorization',
  'malformed_authorization',
  'unknown_customer',
  'invalid_api_key',
  'unsupported_auth_method',
  'missing_date',
  'invalid_date',
  'clock_skew',
  'invalid_nonce',
  'missing_nonce',
  'nonce_reused',
  'signature_mismatch',
  'basic_not_allowed',
  'digest_not_allowed',
] as const;

/** Why a request failed verification: one of {@link VERIFY_FAILURE_REASONS}. */
export type VerifyFailure = (typeof VERIFY_FAILURE_REASONS)[number];

/** The verifier's sentence for each reason (`VERIFY_FAILURES[reason].message`), as a table of its own. */
export const VERIFY_FAILURE_MESSAGES: Readonly<Record<VerifyFailure, string>> = {
  missing_authorization: 'The Authorization header is missing.',
  malformed_authorization: 'The Authorization header must be "TSA <customer id>:<signature>" or "Basic <base64>".',
  unknown_customer: 'The customer ID is not known.',
  invalid_api_key: 'The Basic API key is not valid for this customer.',
  unsupported_auth_method: 'X-TS-Auth-Method must be HMAC-SHA256 or HMAC-SHA1.',
  missing_date: 'Neither X-TS-Date nor Date was sent.',
  invalid_date: 'The date is not an RFC 2616 date (e.g. "Sun, 06 Nov 1994 08:49:37 GMT").',
  clock_skew: 'The date is too far from the server clock; check the client clock.',
  invalid_nonce: 'X-TS-Nonce must be 4 to 256 characters.',
  missing_nonce: 'X-TS-Nonce is required; send a fresh nonce with every request.',
  nonce_reused: 'This X-TS-Nonce was already used; send a fresh nonce with every request.',
  signature_mismatch: 'The signature does not match the request.',
  basic_not_allowed: 'Basic is not accepted here; sign the request (TSA).',
  digest_not_allowed: 'Signed (TSA) requests are not accepted here; use Basic.',
};

/** What the caller should do for each reason (`VERIFY_FAILURES[reason].advice`), as a table of its own. */
export const VERIFY_FAILURE_ADVICE: Readonly<Record<VerifyFailure, string>> = {
  missing_authorization: 'Send Authorization: let the client sign the request, or check that no proxy strips the header.',
  malformed_authorization: 'Send Authorization as "TSA <customer id>:<signature>" or "Basic <base64>"; check that no proxy rewrites it.',
  unknown_customer: 'Check the customer ID, and that baseUrl is the host of your account (rest-api or rest-ww).',
  invalid_api_key: 'Check the API key: it must be the key of this customer ID, as issued (base64).',
  unsupported_auth_method: 'Sign with algorithm HMAC-SHA256 (the default) or HMAC-SHA1.',
  missing_date: 'Send X-TS-Date (the default) or Date; check that no proxy strips it.',
  invalid_date: 'Send the date as an RFC 1123 date in GMT (what Date.prototype.toUTCString() gives).',
  clock_skew: "The service says the request time is off: check this machine's clock (NTP).",
  invalid_nonce: 'Send a nonce of 4 to 256 characters, or let the client generate one per request.',
  missing_nonce: 'Send X-TS-Nonce with every request (the client does unless nonce: false).',
  nonce_reused: 'A nonce was sent twice: let the client generate a fresh one for every attempt.',
  signature_mismatch: 'Compare what was signed with what the server signed to see which line differs; check the API key.',
  basic_not_allowed: "Use auth: 'digest' (the default).",
  digest_not_allowed: "Use auth: 'basic'.",
};

/** The service's own description of each reason's code (`VERIFY_FAILURES[reason].text`), as a table of its own. */
export const VERIFY_FAILURE_TEXTS: Readonly<Record<VerifyFailure, string>> = {
  missing_authorization: 'Missing Authorization header',
  malformed_authorization: 'Authorization header has the wrong format',
  unknown_customer: 'Invalid Customer ID',
  invalid_api_key: 'Invalid API Key',
  unsupported_auth_method: 'Invalid value for x-ts-auth-method header',
  missing_date: 'Missing Date or x-ts-date header',
  invalid_date: 'Date or x-ts-date header is not RFC822 compliant',
  clock_skew: 'Date or x-ts-date header is not within tolerable range',
  invalid_nonce: 'x-ts-nonce header value is too long or too short',
  missing_nonce: 'x-ts-nonce header is required',
  nonce_reused: 'x-ts-nonce header value has been used recently',
  signature_mismatch: 'Invalid Signature',
  basic_not_allowed: 'Basic authentication is not accepted here',
  digest_not_allowed: 'Digest authentication is not accepted here',
};

/**
 * The service codes of each reason (`VERIFY_FAILURES` without `status`, always 401, `message`, `advice` and `text`).
 * The positive family documents no code for a missing or malformed header; 10008 is used there.
 * Messaging, Voice and PhoneID answer positive 5-digit codes in `status.code`; SMS Verify answers
 * negative codes in `errors[]`.
 */
export const VERIFY_FAILURE_CODES: Readonly<Record<VerifyFailure, Omit<VerifyFailureFacts, 'status' | 'message' | 'advice' | 'text'>>> = {
  missing_authorization: {
    positive: 10008,
    negative: -30004,
    borrows: ['positive'],
  },
  malformed_authorization: {
    positive: 10008,
    negative: -30005,
    borrows: ['positive'],
  },
  unknown_customer: {
    positive: 10013,
    negative: -30000,
    alsoPositive: [10015],
  },
  invalid_api_key: {
    positive: 10008,
    negative: -30015,
    borrows: ['positive'],
  },
  unsupported_auth_method: {
    positive: 10006,
    negative: -30008,
  },
  missing_date: {
    positive: 10007,
    negative: -30007,
  },
  invalid_date: {
    positive: 10005,
    negative: -30009,
  },
  clock_skew: {
    positive: 10004,
    negative: -30010,
  },
  invalid_nonce: {
    positive: 10003,
    negative: -30011,
  },
  // The service documents no code for a missing nonce (it does not require one); the too-short code fits.
  missing_nonce: {
    positive: 10003,
    negative: -30011,
    borrows: ['positive', 'negative'],
  },
  nonce_reused: {
    positive: 10002,
    negative: -30012,
  },
  signature_mismatch: {
    positive: 10008,
    negative: -30006,
  },
  basic_not_allowed: {
    positive: 10008,
    negative: -30005,
    borrows: ['positive', 'negative'],
  },
  digest_not_allowed: {
    positive: 10008,
    negative: -30005,
    borrows: ['positive', 'negative'],
  },
};

/**
 * Every verification failure, by reason (the type checker keeps it complete): the four tables
 * above in one. A bundle that reads only one of them (the verifier its messages, the client its
 * advice) carries only that one, so code that needs one field reads that field's table.
 */
export const VERIFY_FAILURES: Readonly<Record<VerifyFailure, VerifyFailureFacts>> = /* @__PURE__ */ joinFailureTables();

function joinFailureTables(): Record<VerifyFailure, VerifyFailureFacts> {
  const table = {} as Record<VerifyFailure, VerifyFailureFacts>;
  for (const reason of VERIFY_FAILURE_REASONS) {
    table[reason] = { status: 401, message: VERIFY_FAILURE_MESSAGES[reason], advice: VERIFY_FAILURE_ADVICE[reason], text: VERIFY_FAILURE_TEXTS[reason], ...VERIFY_FAILURE_CODES[reason] };
  }
  return table;
}

/**
 * Service code -> the reason it names (the inverse of the table, for codes read back from the
 * service). Built on first use: an eager build would keep the table in bundles that only sign.
 */
let byCodeCache: ReadonlyMap<number, VerifyFailure> | undefined;
function byCode(): ReadonlyMap<number, VerifyFailure> {
  if (byCodeCache) return byCodeCache;
  const byCode = new Map<number, VerifyFailure>();
  for (const reason of VERIFY_FAILURE_REASONS) {
    const facts = VERIFY_FAILURE_CODES[reason];
    const borrowed = facts.borrows ?? [];
    if (!borrowed.includes('positive')) for (const code of [facts.positive, ...(facts.alsoPositive ?? [])]) byCode.set(code, reason);
    if (!borrowed.includes('negative')) byCode.set(facts.negative, reason);
  }
  return (byCodeCache = byCode);
}

/**
 * The verification failure a code of the service stands for (10004 and -30010 -> `clock_skew`),
 * or undefined for a code that is not an authentication failure. 10008 (the positive family's
 * code for every signature problem) reads as `signature_mismatch`.
 *
 * @example
 * ```ts
 * import { VERIFY_FAILURES, verifyFailureOf } from '@x/auth';
 *
 * const reason = verifyFailureOf(10008); // 'signature_mismatch'
 * if (reason) log(VERIFY_FAILURES[reason].advice);
 * ```
 */
export function verifyFailureOf(code: number): VerifyFailure | undefined {
  return byCode().get(code);
}

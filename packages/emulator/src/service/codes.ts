// Every code the emulator can answer, with its description from the service references
// (docs/service.md §11, §12). One table for statuses, one for
// errors: answers, callbacks and add-on sections take their descriptions from here, a detail
// (the parameter at fault, what to do) goes after a colon. test/descriptions.test.ts walks every
// code the emulator emits and compares it with the references.
import { INBOUND_SMS_STATUS_TEXT, SMS_STATUS_TEXT, VOICE_STATUS_TEXT } from '@x/auth';

/**
 * Transaction statuses (and the status of add-on sections and Verify API steps). SMS, voice and
 * inbound SMS statuses are @x/auth's tables (one place for those facts); only the codes @x/auth
 * does not name are added here.
 */
export const STATUS_TEXT: Readonly<Record<number, string>> = {
  // PhoneID, Score, Intelligence (service.md §11.3).
  300: 'Transaction successfully completed',
  301: 'Transaction partially completed',
  // Verify completion (service.md §5.3).
  1900: 'Verify completion successfully recorded',
  // PhoneID add-on sections (service.md §4.3).
  2800: 'Request successfully completed',
  2801: 'Invalid addons parameter',
  2803: 'Out of coverage',
  2804: 'Number not applicable',
  2805: 'No information for number',
  2807: 'Some parameters invalid',
  // Verify API steps and outcomes (service.md §8, §11.3).
  3000: 'Delivered',
  3001: 'Message in progress',
  3003: 'Delivery error',
  3900: 'Verification successful',
  3904: 'Verification failed',
  3909: 'Invalid code',
  3931: 'Invalid workflow: the verification is already finalized',
  3935: 'Code validity expired',
  // Voice and Voice Verify (service.md §11.2, service.md §6.2); SMS, SMS Verify, Bulk SMS (service.md §11.1, service.md §9); inbound SMS (service.md §10).
  ...VOICE_STATUS_TEXT,
  ...SMS_STATUS_TEXT,
  ...INBOUND_SMS_STATUS_TEXT,
};

/** Error codes of the three families: positive (status.code), negative (errors[]), Verify API (status.code, 3xxx). */
export const ERROR_TEXT: Record<number, string> = {
  // Positive family (service.md §12.2). 11xxx and 12xxx get the parameter's name after the text.
  10002: 'x-ts-nonce header value has been used recently',
  10003: 'x-ts-nonce header value is too long or too short',
  10004: 'Date or x-ts-date header is not within tolerable range',
  10005: 'Date or x-ts-date header is not RFC822 compliant',
  10006: 'Invalid value for x-ts-auth-method header',
  10007: 'Missing Date or x-ts-date header',
  10008: 'Invalid Signature',
  10013: 'CustomerID account not found',
  10017: 'Customer ID / Reference ID not found',
  10019: 'Rate Limit Exceeded',
  11000: 'Invalid value for parameter',
  11002: 'Invalid value for parameter account_id',
  11003: 'Invalid value for parameter account_lifecycle_event',
  11004: 'Invalid value for parameter callback_url',
  11006: 'Invalid value for parameter device_id',
  11007: 'Invalid value for parameter email_address',
  11009: 'Invalid value for parameter message',
  11010: 'Invalid value for parameter originating_ip',
  11011: 'Invalid value for parameter reference_id',
  11013: 'Invalid value for parameter sender_id',
  11016: 'Invalid value for parameter external_id',
  11017: 'Invalid value for parameter message_type',
  11018: 'Invalid value for parameter voice',
  12000: 'Missing required parameter phone_number',
  12003: 'Missing required parameter account_lifecycle_event',
  12009: 'Missing required parameter message',
  12017: 'Missing required parameter message_type',
  // Service-wide numbers of conditions the positive family documents no code for.
  [-40004]: 'Resource Not Found',
  [-40005]: 'Method Not Allowed',
  // Negative family (service.md §12.3).
  [-10001]: 'Invalid Request',
  [-30000]: 'Invalid Customer ID',
  [-30004]: 'Missing Authorization header',
  [-30005]: 'Authorization header has the wrong format',
  [-30006]: 'Invalid Signature',
  [-30007]: 'Missing Date or x-ts-date header',
  [-30008]: 'Invalid value for x-ts-auth-method header',
  [-30009]: 'Date or x-ts-date header is not RFC822 compliant',
  [-30010]: 'Date or x-ts-date header is not within tolerable range',
  [-30011]: 'x-ts-nonce header value is too long or too short',
  [-30012]: 'x-ts-nonce header value has been used recently',
  [-30013]: 'Invalid ReferenceID for Verify Completion',
  [-30015]: 'Invalid API Key',
  [-40006]: 'Bad request',
  [-40007]: 'Rate Limit Exceeded',
  [-60001]: 'PhoneID Live Data Not Found',
  [-90001]: 'System Unavailable, please try again later',
  // Verify API (service.md §8, D-VAPISC).
  3101: 'Invalid phone_number',
  3103: 'Invalid external_id',
  3110: 'Invalid request',
  3116: 'Payload too large',
  3119: 'Invalid email',
  3204: 'Rate limit exceeded',
  3302: 'Missing phone_number',
  3309: 'Missing email',
  3400: 'Not authorized',
  3500: 'Service unavailable',
};

/** The description of a code (status or error), with a detail after a colon. */
export function describe(code: number, detail?: string): string {
  const text = STATUS_TEXT[code] ?? ERROR_TEXT[code];
  if (text === undefined) throw new Error(`The emulator has no description for code ${code}; add it to codes.ts with the reference's text.`);
  return detail ? `${text}: ${detail}` : text;
}

/** Codes that may still change (service.md §11.1; service.md §6.2: 103 and 105 for calls). */
export const INTERMEDIATE: ReadonlySet<number> = new Set([103, 105, 203, 290, 291, 292, 295]);

/**
 * The final statuses a transaction can be given (`setStatus`, POST /_emulator/transactions/{id}/status),
 * by the channel that carries it (service.md §11.1, §11.2): SMS (Messaging, SMS Verify) and calls (Voice,
 * Voice Verify). Intermediate codes (290, 203, 103, ...) are not final and are not offered.
 */
export const FINAL_STATUS: { readonly sms: readonly number[]; readonly voice: readonly number[] } = {
  sms: [200, 201, 207, 210, 211, 220, 221, 222, 229, 230, 231, 232, 233, 237, 238, 250, 251, 286, 500, 502, 503, 504, 505, 506, 507, 508, 509, 510, 511, 512, 513, 514, 515, 599],
  voice: [100, 101, 102, 104, 106, 107, 108, 129, 130, 500],
};


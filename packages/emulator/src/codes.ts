import type { VerifyFailure } from '@x/auth';

/** Transaction status texts, as the service reference lists them. */
export const STATUS_TEXT: Record<number, string> = {
  100: 'Call answered',
  101: 'Not answered',
  103: 'Call in progress',
  104: 'Wrong/invalid phone number',
  107: 'Line busy',
  130: 'Call blocked by TeleSign',
  200: 'Delivered to handset',
  203: 'Delivered to gateway',
  207: 'Error delivering SMS to handset (reason unknown)',
  222: 'SMS not supported',
  230: 'Message blocked by TeleSign',
  290: 'Message in progress',
  300: 'Transaction successfully completed',
  500: 'Transaction not attempted',
  501: 'Not authorized',
  507: 'Invalid destination address',
};

/** Codes that will not change any more. */
export const INTERMEDIATE = new Set([103, 203, 290, 291, 292, 295]);

/**
 * Authentication failures. Messaging, Voice and PhoneID answer with positive 5-digit codes in
 * `status.code`; SMS Verify answers with negative codes in `errors[]` (reference §5.2, §5.3).
 * The positive family documents no code for a missing or malformed header; 10008 is used there.
 */
export const AUTH_CODES: Record<VerifyFailure, { positive: number; negative: number; text: string }> = {
  missing_authorization: { positive: 10008, negative: -30004, text: 'Missing Authorization header' },
  malformed_authorization: { positive: 10008, negative: -30005, text: 'Authorization header has the wrong format' },
  basic_not_allowed: { positive: 10008, negative: -30005, text: 'Basic authentication is not accepted here' },
  digest_not_allowed: { positive: 10008, negative: -30005, text: 'Digest authentication is not accepted here' },
  unknown_customer: { positive: 10013, negative: -30000, text: 'Invalid Customer ID' },
  invalid_api_key: { positive: 10008, negative: -30015, text: 'Invalid API Key' },
  unsupported_auth_method: { positive: 10006, negative: -30008, text: 'Invalid value for x-ts-auth-method header' },
  missing_date: { positive: 10007, negative: -30007, text: 'Missing Date or x-ts-date header' },
  invalid_date: { positive: 10005, negative: -30009, text: 'Date or x-ts-date header is not RFC822 compliant' },
  clock_skew: { positive: 10004, negative: -30010, text: 'Date or x-ts-date header is not within tolerable range' },
  invalid_nonce: { positive: 10003, negative: -30011, text: 'x-ts-nonce header value is too long or too short' },
  nonce_reused: { positive: 10002, negative: -30012, text: 'x-ts-nonce header value has been used recently' },
  signature_mismatch: { positive: 10008, negative: -30006, text: 'Invalid Signature' },
};

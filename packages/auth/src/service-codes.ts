import type { VerifyFailure } from './verify.js';

/**
 * Authentication failures. Messaging, Voice and PhoneID answer with positive 5-digit codes in
 * `status.code`; SMS Verify answers with negative codes in `errors[]` (reference §5.2, §5.3).
 * The positive family documents no code for a missing or malformed header; 10008 is used there.
 */
export const SERVICE_AUTH_CODES: Record<VerifyFailure, { positive: number; negative: number; text: string }> = {
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
  // The service documents no code for a missing nonce (it does not require one); the too-short code fits.
  missing_nonce: { positive: 10003, negative: -30011, text: 'x-ts-nonce header is required' },
  nonce_reused: { positive: 10002, negative: -30012, text: 'x-ts-nonce header value has been used recently' },
  signature_mismatch: { positive: 10008, negative: -30006, text: 'Invalid Signature' },
};

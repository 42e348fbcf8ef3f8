/** Codes of the errors thrown for misuse (never for attacker input, which gets a result). */
export type AuthErrorCode =
  | 'missing_credentials'
  | 'invalid_customer_id'
  | 'invalid_api_key'
  | 'invalid_algorithm'
  | 'algorithm_not_enabled'
  | 'invalid_header'
  | 'invalid_request';

/**
 * Thrown when the SDK is misconfigured or called with arguments that cannot be signed.
 * The message says what to do; it never contains the API key.
 */
export class AuthError extends Error {
  override readonly name = 'AuthError';
  readonly code: AuthErrorCode;

  constructor(code: AuthErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

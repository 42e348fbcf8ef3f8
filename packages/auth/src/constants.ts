/** Every header name the protocol uses, lower-case, in one place. */
export const HEADER = {
  authorization: 'authorization',
  contentType: 'content-type',
  date: 'date',
  tsDate: 'x-ts-date',
  tsNonce: 'x-ts-nonce',
  tsAuthMethod: 'x-ts-auth-method',
  tsAuthorization: 'x-ts-authorization',
} as const;

/** Prefix of the headers that are part of the string to sign. */
export const TS_HEADER_PREFIX = 'x-ts-';

export const CONTENT_TYPE = {
  form: 'application/x-www-form-urlencoded',
  json: 'application/json',
} as const;

export type Algorithm = 'HMAC-SHA256' | 'HMAC-SHA1';
export const DEFAULT_ALGORITHM: Algorithm = 'HMAC-SHA256';

/** Allowed distance between the request's timestamp and the verifier's clock. */
export const CLOCK_SKEW_MS = 900_000; // 15 minutes
/** How long a nonce stays claimed. */
export const NONCE_WINDOW_MS = 900_000; // 15 minutes
export const NONCE_MIN_LENGTH = 4;
export const NONCE_MAX_LENGTH = 256;

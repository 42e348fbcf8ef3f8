// The one error base of the SDK. Every error a package of the SDK throws extends XError and
// carries a stable `code`; messages say what to do and never contain a secret.

/**
 * The key of the brand each error class carries (a static string naming the class, e.g.
 * `'@x/client/RateLimitError'`). Registered, so that the copies of a class in the ESM and
 * CommonJS builds, and in each entry's bundle, recognise each other's instances. The packages
 * that subclass XError use the same registered key.
 */
const BRAND: unique symbol = Symbol.for('@x/error.brand');

type Branded = { [BRAND]?: unknown };

/**
 * Base of every error the SDK throws: `code` is stable (switch on it), `message` says what to do.
 * `instanceof` holds across the ESM and CommonJS copies of a class (a dual-package setup).
 * Subclasses narrow `code` with `declare readonly code: ...` (not a type parameter, so that
 * `e instanceof SomeError` gives a precise `code`).
 */
export class XError extends Error {
  static readonly [BRAND]: string = '@x/auth/XError';

  /**
   * `value instanceof C` is true when C is on the value's prototype chain, or when a class of the
   * same brand is (the same class, from another copy of the package). A class that declares no
   * brand of its own is matched by the ordinary check only.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    const brand = Object.hasOwn(this, BRAND) && (this as Branded)[BRAND];
    for (let proto = value; typeof proto === 'object' && proto !== null; ) {
      proto = Object.getPrototypeOf(proto);
      // An inherited constructor is the own one of a prototype further up, visited anyway.
      const owner = (proto as { constructor?: Branded } | null)?.constructor;
      if (owner && (owner === this || (brand && Object.hasOwn(owner, BRAND) && owner[BRAND] === brand))) return true;
    }
    return false;
  }

  override name = 'XError';
  /** Stable: what went wrong, for code (the message is for people). */
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** Codes of the errors thrown for misuse (never for attacker input, which gets a result). */
export type AuthErrorCode =
  | 'missing_credentials'
  | 'invalid_customer_id'
  | 'invalid_api_key'
  | 'invalid_algorithm'
  | 'algorithm_not_enabled'
  | 'invalid_header'
  | 'invalid_request'
  | 'invalid_option';

/**
 * Thrown when the SDK is misconfigured or called with arguments that cannot be signed.
 * The message says what to do; it never contains the API key.
 */
export class AuthError extends XError {
  static override readonly [BRAND]: string = '@x/auth/AuthError';
  override name = 'AuthError';
  declare readonly code: AuthErrorCode;

  constructor(code: AuthErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

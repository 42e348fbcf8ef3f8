import { hmacSha1, hmacSha256 } from '#hashes';
import type { Algorithm } from './constants.js';
import { decodeKey } from './credentials.js';
import { AuthError } from './errors.js';
import type { MacProvider, PreparedMac } from './mac.js';

/**
 * The HMAC provider with both algorithms: node:crypto where the `node` export condition applies,
 * @noble/hashes elsewhere. What `verifyRequest` uses by default (a verifier must accept what
 * clients may send), and what to pass as `mac` to sign with HMAC-SHA1 without `enableSha1()`.
 * Bundles that use it carry SHA-1.
 *
 * @example
 * ```ts
 * import { createSigner, prepareMac } from '@x/auth';
 *
 * const signer = createSigner({ customerId, apiKey }, { mac: prepareMac, algorithm: 'HMAC-SHA1' }); // SHA-1 without enableSha1()
 * ```
 */
export const prepareMac: MacProvider = (algorithm, key) => (algorithm === 'HMAC-SHA1' ? hmacSha1 : hmacSha256)(key);

// HMAC-SHA1 for the signers' default provider, once enabled. Signing code refers to SHA-256 only,
// so a bundle that signs (the usual case: HMAC-SHA256) does not carry SHA-1.
let sha1ForSigning: typeof hmacSha1 | undefined;

/**
 * Lets the default signers sign with HMAC-SHA1. Call it once at startup. Not needed with
 * `mac: prepareMac` or `mac: nodeMac`; never needed to verify.
 *
 * @example
 * ```ts
 * import { createSigner, enableSha1 } from '@x/auth';
 *
 * enableSha1(); // once, at startup
 * const signer = createSigner({ customerId, apiKey }, { algorithm: 'HMAC-SHA1' });
 * ```
 */
export function enableSha1(): void {
  sha1ForSigning = hmacSha1;
}

/** The signers' default provider: HMAC-SHA256, and HMAC-SHA1 after `enableSha1()`. */
export const signingMac: MacProvider = (algorithm, key) => {
  const mac = algorithm === 'HMAC-SHA1' ? sha1ForSigning : hmacSha256;
  if (!mac) {
    throw new AuthError(
      'algorithm_not_enabled',
      'HMAC-SHA1 is off by default: call enableSha1() once, or pass mac: prepareMac.',
    );
  }
  return mac(key);
};

/** Case-insensitive parse of an `X-TS-Auth-Method` value. */
export function parseAlgorithm(value: string): Algorithm | undefined {
  const upper = value.trim().toUpperCase();
  return upper === 'HMAC-SHA256' || upper === 'HMAC-SHA1' ? upper : undefined;
}

/** The prepared HMACs of the keys last used, held by the object that owns them (a verifier, a middleware, a route). */
export interface KeyCache {
  /**
   * The prepared HMAC of a base64 API key: decoded and prepared on its first use, then reused.
   * An undecodable key is an `AuthError('invalid_api_key')` (and is not kept).
   */
  mac(algorithm: Algorithm, apiKey: string): PreparedMac;
  /** How many keys are held (at most `limit`). */
  readonly size: number;
}

export interface KeyCacheOptions {
  /** The HMAC implementation the keys are prepared with. Default `prepareMac` (both algorithms; node:crypto on Node). */
  mac?: MacProvider | undefined;
  /** How many keys are held; past it, the least recently used one is dropped. Default 64. */
  limit?: number | undefined;
}

/**
 * A bounded LRU of prepared HMACs keyed by API key, for whoever verifies many requests with few
 * keys: pass it as `keyCache` to `verifyRequest` (and to `verifyCallback` of @x/webhooks), so that
 * a key from your credentials lookup is decoded and prepared once, not on every request. Its
 * owner holds it; nothing is cached at module level, so keys live as long as their owner.
 *
 * @example
 * ```ts
 * import { createKeyCache, verifyRequest } from '@x/auth';
 *
 * const keyCache = createKeyCache({ limit: 64 }); // one per server, held for its lifetime
 * const request = { method: 'GET', url: '/v1/messaging/ABC', headers: {} }; // as received
 * const result = await verifyRequest(request, { credentials: lookup, keyCache });
 * if (!result.ok) log(result.reason);
 * ```
 */
export function createKeyCache(options: KeyCacheOptions = {}): KeyCache {
  const provider = options.mac ?? prepareMac;
  const limit = options.limit ?? 64;
  if (!Number.isInteger(limit) || limit < 1) {
    throw new AuthError('invalid_request', `createKeyCache: limit must be a positive integer (how many keys are held), got ${String(limit)}.`);
  }
  // Insertion order is recency order: a hit moves its key to the end, the first key is the oldest.
  const entries = new Map<string, Partial<Record<Algorithm, PreparedMac>>>();
  return {
    mac(algorithm, apiKey) {
      const entry = entries.get(apiKey) ?? {};
      const mac = (entry[algorithm] ??= provider(algorithm, decodeKey(apiKey)));
      entries.delete(apiKey);
      if (entries.size >= limit) entries.delete(entries.keys().next().value as string);
      entries.set(apiKey, entry);
      return mac;
    },
    get size() {
      return entries.size;
    },
  };
}

import type { Algorithm } from './constants.js';

/** A keyed HMAC for one key: the base64 signature of the parts (text is UTF-8). */
export interface PreparedMac {
  (parts: ReadonlyArray<string | Uint8Array>): string;
}

/**
 * Prepares an HMAC for a key. The default is chosen by export conditions: node:crypto where the
 * `node` condition applies, @noble/hashes everywhere else. Pass one as the `mac` option.
 */
export type MacProvider = (algorithm: Algorithm, key: Uint8Array) => PreparedMac;

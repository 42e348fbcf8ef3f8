/**
 * Node-only entry of `@x/auth`: `nodeMac`, HMAC through node:crypto.
 *
 * @packageDocumentation
 * @module @x/auth/node
 */
// Node-only entry of @x/auth: HMAC with node:crypto. The portable code never imports this file.
import type { MacProvider } from '../hmac.js';
import { nodeHmac } from './hashes.js';

/**
 * HMAC through node:crypto (one-shot digests over the key's pads, made once), whatever the
 * export conditions. On Node it is already the default (`@x/auth` picks node:crypto by the `node`
 * export condition). Pass it as `mac` to createSigner, verifyRequest, callbackSignature,
 * createClient or the emulator to use node:crypto where another condition (`deno`, `bun`,
 * `browser`) picks the pure HMAC.
 *
 * @example
 * ```ts
 * import { createSigner } from '@x/auth';
 * import { nodeMac } from '@x/auth/node';
 *
 * const signer = createSigner({ customerId, apiKey }, { mac: nodeMac }); // node:crypto
 * ```
 */
export const nodeMac: MacProvider = (algorithm, key) => nodeHmac(algorithm === 'HMAC-SHA1' ? 'sha1' : 'sha256', key);

export type { MacProvider, PreparedMac } from '../hmac.js';
export type { Algorithm } from '../constants.js';

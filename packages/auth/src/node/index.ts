/**
 * Node-only entry of `@x/auth`: `nodeMac`, HMAC through node:crypto.
 *
 * @packageDocumentation
 * @module @x/auth/node
 */
// Node-only entry of @x/auth: HMAC with node:crypto. The portable code never imports this file.
import type { MacProvider } from '../hmac.js';
import { nodeHmac } from './hmac.js';

/**
 * HMAC through node:crypto: two one-shot digests over the key's padded blocks, prepared once (or,
 * where node:crypto has no one-shot `hash`, an Hmac object per call). Same signatures as the
 * default pure implementation, faster on Node. Pass it as `mac` to createSigner, verifyRequest,
 * callbackSignature, createClient or the emulator.
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

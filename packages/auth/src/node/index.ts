/**
 * Node-only entry of `@x/auth`: `nodeMac`, HMAC through node:crypto.
 *
 * @packageDocumentation
 * @module @x/auth/node
 */
// The portable code never imports this file.
import type { MacProvider } from '../mac.js';
import { nodeHmac } from './hashes.js';

/**
 * HMAC through node:crypto's `createHmac`, whatever the export conditions. Not needed on Node,
 * where `@x/auth` already picks node:crypto by the `node` export condition: pass it as `mac` only
 * where another condition (`deno`, `bun`, `browser`) picks @noble/hashes and you want node:crypto.
 *
 * @example
 * ```ts
 * import { createSigner } from '@x/auth';
 * import { nodeMac } from '@x/auth/node';
 *
 * const signer = createSigner({ customerId, apiKey }, { mac: nodeMac }); // node:crypto under any condition
 * ```
 */
export const nodeMac: MacProvider = (algorithm, key) => nodeHmac(algorithm === 'HMAC-SHA1' ? 'sha1' : 'sha256', key);

export type { MacProvider, PreparedMac } from '../mac.js';
export type { Algorithm } from '../constants.js';

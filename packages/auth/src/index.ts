/**
 * Signing and verification of the service's requests and callbacks (TSA HMAC digest, Basic, replay store), with the service's codes. Pure: runs in Node, Deno, Bun, browsers and workers.
 *
 * @packageDocumentation
 * @module @x/auth
 */
export { signRequest, createSigner } from './sign.js';
export type { SignableRequest, SignOptions, SignerOptions, SignedRequest, Signer } from './sign.js';
export { prepareMac, enableSha1, createKeyCache } from './hmac.js';
export type { KeyCache, KeyCacheOptions } from './hmac.js';
export type { MacProvider, PreparedMac } from './mac.js';
export { basicAuthorization } from './basic.js';
export { verifyRequest } from './verify.js';
export type { VerifyOptions, VerifyResult, VerifiableRequest, HeaderInput } from './verify.js';
export { createMemoryReplayStore } from './replay.js';
export type { ReplayStore, DeliveryStore, DeliveryBegin, DeliveryState, MemoryReplayStore, MemoryReplayStoreOptions } from './replay.js';
export { callbackSignature, callbackHeaders } from './callback.js';
export type { Credentials } from './credentials.js';
export { readClock } from './clock.js';
export type { Clock } from './clock.js';
export { XError, AuthError } from './errors.js';
export type { AuthErrorCode } from './errors.js';
export type { Algorithm } from './constants.js';
// The service's vocabulary (status codes and states, the failure table), declared in @x/service.
export * from '@x/service';
export * from '@x/service/failures';

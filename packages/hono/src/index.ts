/**
 * Hono middleware: verified callbacks and signed-request verification, typed `c.get(...)`.
 *
 * @packageDocumentation
 * @module @x/hono
 */
export { verifyCallbacks } from './callbacks.js';
export type { CallbackMiddlewareOptions, CallbackVariables, CallbackEnv } from './callbacks.js';
export { verifySignedRequests } from './signed.js';
export type { SignedRequestMiddlewareOptions, SignedRequestVariables, SignedRequestEnv } from './signed.js';
export type { MiddlewareOptions, VerificationFailure, OptionsOrFactory } from './options.js';
export { BODY_USED_MESSAGE } from './body.js';

/**
 * The core every framework adapter (@x/express, @x/fastify, @x/hono) is a small file around: read the raw body (with a limit), read a header, write an answer; verify, run the handler, settle the delivery. For authors of an adapter for another framework.
 *
 * @packageDocumentation
 * @module @x/webhooks/adapter
 */
export { receiveCallback, decideCallback, receiveSignedRequest, settleWith, succeeded, signedRequestAnswer, verificationFailure, withKeyCache } from './adapter.js';
export type { AdapterExchange, CallbackExchange, SignedRequestExchange, VerificationFailure } from './adapter.js';
export { readRequestBody } from './body.js';
// The types these names use (the main entry has them too).
export type { CallbackOptions, LeaseLost, VerifiedCallback } from './verify.js';
export type { CallbackPayload } from './types.js';
export type { CallbackAnswer, CallbackFailure } from './failures.js';

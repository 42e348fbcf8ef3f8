/**
 * Express 4/5 middleware: verified callbacks and signed-request verification.
 *
 * @packageDocumentation
 * @module @x/express
 */
import type { CallbackPayload } from '@x/webhooks';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** The verified callback payload (set by `verifyCallbacks`). */
      callback?: CallbackPayload;
      /** Which header verified it; `x-ts-authorization` means the retiring header was all there was. */
      callbackHeader?: 'authorization' | 'x-ts-authorization';
      /** The verified customer of a signed request (set by `verifySignedRequests`). */
      customerId?: string;
      /** Raw body bytes kept by this package or by a parser's verify hook. */
      rawBody?: Uint8Array | string;
    }
  }
}

export { verifyCallbacks } from './callbacks.js';
export type { CallbackMiddlewareOptions } from './callbacks.js';
export { verifySignedRequests } from './signed.js';
export { verifiedCallback, verifiedRequest } from './verified.js';
export type { VerifiedCallbackRequest, VerifiedSignedRequest } from './verified.js';
export type { SignedRequestMiddlewareOptions } from './signed.js';
export type { MiddlewareOptions, VerificationFailure } from './options.js';
export { PARSED_BODY_MESSAGE, saveRawBody } from './raw-body.js';

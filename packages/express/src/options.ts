import type { NextFunction, Request, Response } from 'express';
import type { VerificationFailure } from '@x/webhooks/adapter';

export type { VerificationFailure };

/** The options both middlewares of this package take, besides those of the verification itself. */
export interface MiddlewareOptions {
  /** Largest body read, in bytes. Default 100 KiB; larger bodies get 413. */
  limit?: number | undefined;
  /** Called instead of the default JSON answer when verification fails (not for 200 duplicate / 503 in progress). */
  onError?: ((failure: VerificationFailure, req: Request, res: Response, next: NextFunction) => void) | undefined;
}

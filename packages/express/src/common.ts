import type { NextFunction, Request, Response } from 'express';

/** A verification that failed, as `onError` gets it. */
export interface VerificationFailure {
  status: number;
  body: Record<string, unknown>;
  /** Why: a callback failure (`signature_mismatch`, `body_too_large`, ...) or a signed-request one (`clock_skew`, ...). */
  reason: string;
}

export interface Common {
  /** Largest body read, in bytes. Default 100 KiB; larger bodies get 413. */
  limit?: number | undefined;
  /** Called instead of the default JSON answer when verification fails (not for 200 duplicate / 503 in progress). */
  onError?: ((failure: VerificationFailure, req: Request, res: Response, next: NextFunction) => void) | undefined;
}

import type { NextFunction, Request, Response } from 'express';

export interface Common {
  /** Largest body read, in bytes. Default 100 KiB; larger bodies get 413. */
  limit?: number;
  /** Called instead of the default JSON answer when verification fails (not for 200 duplicate / 503 in progress). */
  onError?: (failure: { status: number; body: Record<string, unknown> }, req: Request, res: Response, next: NextFunction) => void;
}

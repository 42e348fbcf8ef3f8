import type { ReplayStore, VerifyOptions } from '@x/auth';
import { callbackOutcome, signedRequestOutcome, tooLarge, type AdapterOutcome, type CallbackOptions, type CallbackPayload } from '@x/webhooks';
import { nodeMac } from '@x/auth/node';
import { nativeCallbackSignature } from '@x/webhooks/node';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { BodyTooLargeError, readRawBody } from './raw-body.js';

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

export interface Common {
  /** Largest body read, in bytes. Default 100 KiB; larger bodies get 413. */
  limit?: number;
  /** Called instead of the default JSON answer on failure. */
  onError?: (failure: { status: number; body: Record<string, unknown> }, req: Request, res: Response, next: NextFunction) => void;
}

export type CallbackMiddlewareOptions = CallbackOptions & Common;
export type SignedRequestMiddlewareOptions = Omit<VerifyOptions, 'replayStore'> & Common & { replayStore?: ReplayStore };

const DEFAULT_LIMIT = 100 * 1024;

/** req.body when it was parsed from exactly these raw bytes (by us or by a parser's verify hook). */
const parsedFrom = (req: Request, raw: Uint8Array | string) =>
  req.rawBody === raw && typeof req.body === 'object' && req.body !== null && !(req.body instanceof Uint8Array) ? req.body : undefined;

async function run<T>(req: Request, res: Response, next: NextFunction, options: Common, verify: (raw: Uint8Array | string) => Promise<AdapterOutcome<T>>, accept: (value: T) => void) {
  let outcome: AdapterOutcome<T>;
  try {
    const limit = options.limit ?? DEFAULT_LIMIT;
    let raw: Uint8Array | string;
    try {
      raw = await readRawBody(req, limit);
    } catch (error) {
      if (error instanceof BodyTooLargeError) {
        outcome = tooLarge(limit);
        return fail();
      }
      return next(error);
    }
    outcome = await verify(raw);
  } catch (error) {
    return next(error);
  }
  if (outcome.ok) {
    accept(outcome.value);
    return next();
  }
  return fail();

  function fail() {
    const failure = outcome as Extract<AdapterOutcome<T>, { ok: false }>;
    if (options.onError && failure.status !== 200) return options.onError({ status: failure.status, body: failure.body }, req, res, next);
    res.status(failure.status).json(failure.body);
  }
}

/**
 * Verifies the service's callbacks on a route, whatever body parser is mounted (it reads the raw
 * bytes itself, or uses express.raw() / a saved req.rawBody). Sets `req.callback`; answers 401 on
 * a bad signature and 200 `{ duplicate: true }` for a delivery already processed.
 */
export function verifyCallbacks(options: CallbackMiddlewareOptions): RequestHandler {
  const verify = { signer: nativeCallbackSignature, ...options };
  return (req, res, next) =>
    void run(req, res, next, options, (raw) => callbackOutcome(raw, req.headers, verify, parsedFrom(req, raw)), (value) => {
      req.callback = value.payload;
      req.callbackHeader = value.header;
    });
}

/** Verifies requests signed as the service requires (Digest and/or Basic); sets `req.customerId`; 401 as the service answers. */
export function verifySignedRequests(options: SignedRequestMiddlewareOptions): RequestHandler {
  const verify = { mac: nodeMac, ...options };
  return (req, res, next) =>
    void run(req, res, next, options, (raw) => signedRequestOutcome({ method: req.method, url: req.originalUrl, headers: req.headers, body: raw }, verify), (value) => {
      req.customerId = value.customerId;
    });
}

export { PARSED_BODY_MESSAGE } from './raw-body.js';

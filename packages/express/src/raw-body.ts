import { WebhookError } from '@x/webhooks';
import { collect } from '@x/webhooks/node';
import type { Request } from 'express';

// Made at each use: nothing touches TextDecoder at import (Jest's jsdom environment has none).
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** The message of the `WebhookError('body_parsed')` passed to next() when a parser kept no raw bytes. */
export const PARSED_BODY_MESSAGE =
  'The request body was already read by a body parser (express.json(), express.urlencoded() or another) that kept no raw bytes, ' +
  'so its signature cannot be checked. Give the parser the verify hook of @x/express: ' +
  'app.use(express.json({ verify: saveRawBody })) and app.use(express.urlencoded({ extended: false, verify: saveRawBody })); ' +
  'or register this route before the global parsers; or mount express.raw({ type: "*/*" }) on the route.';

/**
 * A body parser's `verify` hook that keeps the raw bytes as `req.rawBody`, so that the verifiers
 * can check them behind a global parser: `app.use(express.json({ verify: saveRawBody }))`, the
 * same for `express.urlencoded()`, `express.text()` and `express.raw()`. The parser still sets
 * `req.body` as usual; the verifiers reuse it.
 *
 * @example
 * ```ts
 * import express from 'express';
 * import { saveRawBody, verifyCallbacks } from '@x/express';
 *
 * const app = express();
 * app.use(express.json({ verify: saveRawBody })); // keeps the bytes the signature covers
 * app.post('/callbacks', verifyCallbacks({ customerId, apiKey }), (req, res) => void res.sendStatus(200));
 * ```
 */
export function saveRawBody(req: object, _res: unknown, buf: Uint8Array): void {
  (req as { rawBody?: Uint8Array }).rawBody = buf;
}

/** Whether the request carries a body (RFC 9112 §6.3: Transfer-Encoding, or a non-zero Content-Length). */
const hasBody = (req: Request) => req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && Number(req.headers['content-length']) !== 0);

const EMPTY = new Uint8Array();

/**
 * The raw body something else already holds: bytes from express.raw(), a `req.rawBody` saved by
 * `saveRawBody`, or an empty body; undefined when the stream is still to be read (`readStream`).
 * Throws `WebhookError('body_parsed')` when something read the stream without keeping the bytes.
 */
export function keptRawBody(req: Request & { rawBody?: unknown }): Uint8Array | string | undefined {
  if (req.body instanceof Uint8Array) return req.body;
  if (req.rawBody instanceof Uint8Array || typeof req.rawBody === 'string') return req.rawBody;
  if (typeof req.body === 'string') return req.body;
  // Read by someone: 'data' was emitted or the stream ended. (A stream nobody read yet may be
  // `complete`, its bytes buffered: that is not consumed.)
  if (req.readableEnded || req.readableDidRead) {
    // Nothing was lost only when the request had no body; otherwise the bytes that a parser turned
    // into req.body were never verified, whatever the method (a signed GET with an added body
    // included): refuse rather than hand the handler an unsigned body.
    if (!hasBody(req)) return EMPTY;
    throw new WebhookError('body_parsed', PARSED_BODY_MESSAGE);
  }
  return undefined;
}

/**
 * Reads the stream (up to `limit` bytes; `BodyTooLargeError` beyond, or at once when Content-Length
 * says more). The verified bytes become `req.body` / `req.callback` once parsed. A body parser that
 * runs after this on the same request finds the stream ended: Express 5's skip it, Express 4's
 * answer 400 (see the README).
 */
export function readStream(req: Request, limit: number): Promise<Uint8Array> {
  return collect(req, limit, req.headers['content-length']);
}

/**
 * Sets req.body from bytes this package read and verified, for JSON and form bodies, when nothing
 * set it: parsed once, after verification (unverified bytes are never parsed).
 */
export function parseVerifiedBody(req: Request, raw: Uint8Array): void {
  const type = String(req.headers['content-type'] ?? '').toLowerCase();
  try {
    if (type.startsWith('application/json')) {
      const text = decode(raw);
      req.body = text ? JSON.parse(text) : {};
    } else if (type.startsWith('application/x-www-form-urlencoded')) req.body = Object.fromEntries(new URLSearchParams(decode(raw)));
  } catch {
    // Not parseable: leave req.body alone (the signature held over these bytes; the handler decides).
  }
}

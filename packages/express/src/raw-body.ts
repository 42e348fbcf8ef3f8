import { BodyTooLargeError, collect } from '@x/webhooks/node';
import type { Request } from 'express';

export { BodyTooLargeError };

const decoder = new TextDecoder();

/** Error for a body that a JSON or form parser consumed before we could read the bytes. */
export const PARSED_BODY_MESSAGE =
  'The request body was already parsed (express.json() or express.urlencoded() ran first) and no raw bytes were kept, ' +
  'so the signature cannot be checked. Mount this middleware before the body parsers, mount express.raw({ type: "*/*" }) on the route, ' +
  'or keep the bytes with express.json({ verify: (req, _res, buf) => { req.rawBody = buf } }).';

/** Whether the request carries a body (RFC 9112 §6.3: Transfer-Encoding, or a non-zero Content-Length). */
const hasBody = (req: Request) => req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && Number(req.headers['content-length']) !== 0);

/**
 * The raw body, without reading anything twice: bytes from express.raw(), a saved `req.rawBody`,
 * or the stream itself (up to `limit` bytes). Throws when a parser already consumed the stream.
 */
export async function readRawBody(req: Request & { rawBody?: unknown }, limit: number): Promise<Uint8Array | string> {
  if (req.body instanceof Uint8Array) return req.body;
  if (req.rawBody instanceof Uint8Array || typeof req.rawBody === 'string') return req.rawBody;
  if (typeof req.body === 'string') return req.body;
  if (req.readableEnded || (req.body !== undefined && req.body !== null && typeof req.body === 'object' && req.complete)) {
    // The stream is gone. Nothing was lost only when the request had no body; otherwise the bytes
    // that a parser turned into req.body were never verified, whatever the method (a signed GET
    // with an added body included): refuse rather than hand the handler an unsigned body.
    if (!hasBody(req)) return new Uint8Array();
    throw new Error(PARSED_BODY_MESSAGE);
  }
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) throw new BodyTooLargeError();
  const out = await collect(req, limit);
  // The stream is consumed now, so later middleware gets the bytes and, for JSON and form bodies,
  // the parsed body; `_body` tells express.json()/urlencoded() not to read the ended stream again.
  const target = req as Request & { rawBody?: Uint8Array; _body?: boolean };
  target.rawBody = out;
  const type = String(req.headers['content-type'] ?? '').toLowerCase();
  try {
    const text = decoder.decode(out);
    if (type.startsWith('application/json')) target.body = text ? JSON.parse(text) : {};
    else if (type.startsWith('application/x-www-form-urlencoded')) target.body = Object.fromEntries(new URLSearchParams(text));
    else return out;
    target._body = true;
  } catch {
    // Not parseable: leave req.body alone; verification decides what to answer.
  }
  return out;
}

import { readBoundedBody } from '@x/auth/protocol';
import type { Params } from './validate.js';

/** Rejects bytes that are not UTF-8 (one decoder for every request). */
/** Made at first use: nothing of the emulator touches TextDecoder at import (Jest's jsdom has none). */
let strictUtf8: TextDecoder | undefined;

/**
 * The body, or undefined when it is larger than `max`. With a declared Content-Length (and no
 * Transfer-Encoding), a length over `max` is refused before reading, and one within it is read
 * whole (an HTTP server reads no further than the declared length; the size is checked again after).
 * Without one, the stream is read by `readBoundedBody` of @x/auth, which stops as soon as more than
 * `max` bytes arrived.
 */
export async function readBody(request: Request, max: number): Promise<Uint8Array | undefined> {
  const declared = request.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared) && request.headers.get('transfer-encoding') === null) {
    if (Number(declared) > max) return undefined;
    const whole = new Uint8Array(await request.arrayBuffer());
    return whole.length > max ? undefined : whole;
  }
  return request.body ? readBoundedBody(request.body, max) : new Uint8Array();
}

/** The parameters of a request body: string fields, and the JSON object itself for nested values (PhoneID `addons`). */
export interface ParsedBody {
  params: Params;
  /** The whole JSON object, when the body was JSON. */
  object?: Record<string, unknown>;
}

export type BodyProblem = 'not_utf8' | 'not_json' | 'not_object';

export const BODY_PROBLEMS: Record<BodyProblem, string> = {
  not_utf8: 'the body is not valid UTF-8',
  not_json: 'the body is not valid JSON',
  not_object: 'the JSON body must be an object',
};

/**
 * Form or JSON, by Content-Type: the parameters as strings (repeated form fields: the first wins;
 * JSON numbers and booleans as their text; nested values only in `object`).
 */
export function parseBody(raw: Uint8Array, contentType: string | undefined): ParsedBody | BodyProblem {
  let text: string;
  try {
    text = (strictUtf8 ??= new TextDecoder('utf-8', { fatal: true })).decode(raw);
  } catch {
    return 'not_utf8';
  }
  const params: Params = {};
  if ((contentType ?? '').toLowerCase().startsWith('application/json')) {
    let value: unknown;
    try {
      value = text === '' ? {} : JSON.parse(text);
    } catch {
      return 'not_json';
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not_object';
    for (const [k, v] of Object.entries(value)) if (v !== null && typeof v !== 'object') params[k] = String(v);
    return { params, object: value as Record<string, unknown> };
  }
  for (const [k, v] of new URLSearchParams(text)) if (!(k in params)) params[k] = v;
  return { params };
}

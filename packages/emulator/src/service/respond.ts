import { noteAnswer, type JournalContext } from '../control/request-record.js';

/** Every answer of the emulator is JSON with `Content-Type: application/json`. */
const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'content-type': 'application/json' });

export const json = (status: number, body: unknown, headers?: Record<string, string>): Response =>
  new Response(JSON.stringify(body), { status, headers: headers ? { ...JSON_HEADERS, ...headers } : JSON_HEADERS });

/** A service answer: `json`, with its service code and reference id noted for the journal in the request's context. */
export const reply = (c: JournalContext, status: number, body: unknown, headers?: Record<string, string>): Response => {
  noteAnswer(c, body);
  return json(status, body, headers);
};

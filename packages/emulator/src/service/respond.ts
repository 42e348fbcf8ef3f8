// Answers of the emulator, and what the journal learns from them. The journal middleware
// (control/record.ts) keeps the record of the request being answered in its Hono context
// (`c.get('journal')`, shared by the app and its product sub-apps), never in a header; an answer
// built here notes its service code and reference id in it.

/** What the journal reads from an answer without parsing it again: its service code and reference id. */
export interface AnswerFacts {
  serviceCode?: number;
  referenceId?: string;
}

/** Any Hono context of the emulator's apps: the record of the request, absent when it is not journaled (control reads). */
export interface JournalContext {
  get(key: 'journal'): { answer?: AnswerFacts } | undefined;
}

/** For an answer built outside any request's context (the Node adapter's unreadable request): nothing is noted. */
export const UNRECORDED: JournalContext = Object.freeze({ get: () => undefined });

/** The service code of a body: `errors[0].code` when there are errors (the negative family), else `status.code`. */
function factsOf(body: unknown): AnswerFacts | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const b = body as { errors?: unknown; status?: unknown; reference_id?: unknown };
  const first = Array.isArray(b.errors) ? (b.errors[0] as { code?: unknown } | undefined) : undefined;
  const code = typeof first?.code === 'number' ? first.code : (b.status as { code?: unknown } | undefined)?.code;
  const out: AnswerFacts = {};
  if (typeof code === 'number') out.serviceCode = code;
  if (typeof b.reference_id === 'string') out.referenceId = b.reference_id;
  return out;
}

/** Every answer of the emulator is JSON with `Content-Type: application/json`. */
export const json = (status: number, body: unknown, headers?: Record<string, string>): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/** A service answer: `json`, with its service code and reference id noted for the journal (the last answer built wins). */
export const reply = (c: JournalContext, status: number, body: unknown, headers?: Record<string, string>): Response => {
  const record = c.get('journal');
  if (record) record.answer = factsOf(body);
  return json(status, body, headers);
};

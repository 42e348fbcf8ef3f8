/** What the journal reads from an answer without parsing it again: its service code and reference id. */
export interface AnswerFacts {
  serviceCode?: number;
  referenceId?: string;
}

const facts = new WeakMap<Response, AnswerFacts>();

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
const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'content-type': 'application/json' });

export const json = (status: number, body: unknown, headers?: Record<string, string>): Response => {
  const response = new Response(JSON.stringify(body), { status, headers: headers ? { ...JSON_HEADERS, ...headers } : JSON_HEADERS });
  const found = factsOf(body);
  if (found) facts.set(response, found);
  return response;
};

/** The facts `json` noted about an answer (none for answers built otherwise). */
export const answerFacts = (response: Response): AnswerFacts | undefined => facts.get(response);

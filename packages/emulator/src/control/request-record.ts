// What the routes tell the journal about the request they are answering: the verdict of
// authentication, who it named, the numbers it was about, the fault applied, and the service code
// and reference id of the answer. Kept in the request's Hono context (`c.get('journal')`, set by the
// journal middleware and shared by the app and its product sub-apps), never in a header.
import type { FaultType } from './faults.js';
import type { JournalVerdict } from './journal.js';

/** What the journal reads from an answer without parsing it again: its service code and reference id. */
export interface AnswerFacts {
  serviceCode?: number;
  referenceId?: string;
}

export interface RequestDraft {
  verdict?: JournalVerdict;
  customerId?: string;
  /** The emulator's string to sign, on a signature mismatch. */
  stringToSign?: string;
  fault?: FaultType;
  phoneNumbers?: string[];
  referenceId?: string;
  /** The facts of the answer, noted by whoever built its body. */
  answer?: AnswerFacts;
}

/** The context variables of a journaled request. */
export interface JournalVariables {
  /** Absent when the request is not journaled (control reads). */
  journal?: RequestDraft;
}

/**
 * Any Hono context of the emulator's apps: they all carry {@link JournalVariables}. Read with
 * `get` (a Map lookup), not `c.var` (which copies every variable into a new object on each read).
 */
export interface JournalContext {
  get(key: 'journal'): RequestDraft | undefined;
}

/** For an answer built outside any request's context (the Node adapter's unreadable request): nothing is noted. */
export const UNRECORDED: JournalContext = Object.freeze({ get: () => undefined });

/** Adds facts to the record of a request; nothing when the request is not being journaled. */
export function note(c: JournalContext, fields: RequestDraft): void {
  const draft = c.get('journal');
  if (draft) Object.assign(draft, fields);
}

/** Adds the numbers a request was about (each once). */
export function notePhones(c: JournalContext, numbers: ReadonlyArray<string | undefined>): void {
  const draft = c.get('journal');
  if (!draft) return;
  for (const n of numbers) {
    if (n === undefined || n === '') continue;
    draft.phoneNumbers ??= [];
    if (!draft.phoneNumbers.includes(n)) draft.phoneNumbers.push(n);
  }
}

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

/** Notes the service code and reference id of the body being answered (the last answer built wins). */
export function noteAnswer(c: JournalContext, body: unknown): void {
  const draft = c.get('journal');
  if (draft) draft.answer = factsOf(body);
}

/** How a request authenticated, from its Authorization header alone. */
export function schemeOf(value: string | undefined): 'digest' | 'basic' | 'none' {
  if (value === undefined) return 'none';
  if (/^\s*TSA\s/i.test(value)) return 'digest';
  if (/^\s*Basic\s/i.test(value)) return 'basic';
  return 'none';
}

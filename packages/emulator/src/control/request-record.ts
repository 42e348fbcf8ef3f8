// What the routes tell the journal about the request they are answering: the verdict of
// authentication, who it named, the numbers it was about, the fault applied, and (noted by
// `reply`, service/respond.ts) the service code and reference id of the answer. Kept in the
// request's Hono context (`c.get('journal')`, set by the journal middleware and shared by the app
// and its product sub-apps), never in a header.
import type { FaultType } from '../state/faults.js';
import type { JournalVerdict } from '../state/journal.js';
import type { AnswerFacts } from '../service/respond.js';

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

/** Any Hono context of the emulator's apps: they all carry {@link JournalVariables}. */
interface DraftContext {
  get(key: 'journal'): RequestDraft | undefined;
}

/** Adds facts to the record of a request; nothing when the request is not being journaled. */
export function note(c: DraftContext, fields: RequestDraft): void {
  const draft = c.get('journal');
  if (draft) Object.assign(draft, fields);
}

/** Adds the numbers a request was about (each once). */
export function notePhones(c: DraftContext, numbers: ReadonlyArray<string | undefined>): void {
  const draft = c.get('journal');
  if (!draft) return;
  for (const n of numbers) {
    if (n === undefined || n === '') continue;
    draft.phoneNumbers ??= [];
    if (!draft.phoneNumbers.includes(n)) draft.phoneNumbers.push(n);
  }
}

/** How a request authenticated, from its Authorization header alone. */
export function schemeOf(value: string | undefined): 'digest' | 'basic' | 'none' {
  if (value === undefined) return 'none';
  if (/^\s*TSA\s/i.test(value)) return 'digest';
  if (/^\s*Basic\s/i.test(value)) return 'basic';
  return 'none';
}

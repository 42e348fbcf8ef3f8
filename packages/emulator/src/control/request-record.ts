// What the service routes tell the journal about the request they are answering: the verdict of
// authentication, who it named, the numbers it was about, the fault applied. Kept beside the
// Request object (one per request, shared by the app and its product sub-apps), never in a header.
import type { FaultType } from './faults.js';
import type { JournalVerdict } from './journal.js';

export interface RequestDraft {
  verdict?: JournalVerdict;
  customerId?: string;
  /** The emulator's string to sign, on a signature mismatch. */
  stringToSign?: string;
  fault?: FaultType;
  phoneNumbers?: string[];
  referenceId?: string;
}

const drafts = new WeakMap<Request, RequestDraft>();

/** Starts the record of a request (the journal middleware). */
export function beginDraft(request: Request): RequestDraft {
  const draft: RequestDraft = {};
  drafts.set(request, draft);
  return draft;
}

/** Adds facts to the record of a request; nothing when the request is not being journaled. */
export function note(request: Request, fields: RequestDraft): void {
  const draft = drafts.get(request);
  if (draft) Object.assign(draft, fields);
}

/** Adds the numbers a request was about (each once). */
export function notePhones(request: Request, numbers: ReadonlyArray<string | undefined>): void {
  const draft = drafts.get(request);
  if (!draft) return;
  for (const n of numbers) {
    if (n === undefined || n === '') continue;
    draft.phoneNumbers ??= [];
    if (!draft.phoneNumbers.includes(n)) draft.phoneNumbers.push(n);
  }
}

/** How a request authenticated, from its Authorization header alone. */
export function schemeOf(request: Request): 'digest' | 'basic' | 'none' {
  const value = request.headers.get('authorization');
  if (value === null) return 'none';
  if (/^\s*TSA\s/i.test(value)) return 'digest';
  if (/^\s*Basic\s/i.test(value)) return 'basic';
  return 'none';
}

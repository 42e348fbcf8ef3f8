// The Verify API's verification (service.md §8) as a pure function of time: from the
// policy, the test number's outcomes and the clock, where the verification stands at any moment.
// The transitions are not documented; the emulator's (README, "Verify API"):
//   - the first method is sent at creation; the state is ONGOING from then on (CREATED is never seen);
//   - a method whose delivery fails (known after the delivery delay) falls back to the next at once;
//     a delivered one after its fallback_time, unless the verification ended;
//   - finalize with the right code: VERIFIED (3900); a wrong one: 3909 while attempts remain, the
//     last one REJECTED (3904);
//   - FAILED when the last method failed, when its code validity ran out (it restarts at each
//     fallback), or at the longest duration of a verification (300 s), whichever comes first.
import { outcomeOf } from '../service/numbers.js';

export type Method = 'sms' | 'whatsapp' | 'viber' | 'rcs' | 'email' | 'silent' | 'push';
export type State = 'CREATED' | 'ONGOING' | 'REJECTED' | 'FAILED' | 'VERIFIED' | 'CANCELED';

export const METHODS: readonly Method[] = ['sms', 'whatsapp', 'viber', 'rcs', 'email', 'silent', 'push'];
/** Methods that must come first and exclude each other (no code is sent). */
export const FIRST_ONLY: readonly Method[] = ['silent', 'push'];
/** Default fallback_time per method, seconds (policy page): 120 for email, 60 for the others. */
export const DEFAULT_FALLBACK_SECONDS = (method: Method) => (method === 'email' ? 120 : 60);
/** Accepted fallback_time, seconds: from 30 (the page says "> 30", its example and two SDKs send 30) to 300 (v2 cap). */
export const FALLBACK_SECONDS = { min: 30, max: 300 } as const;

export interface Verification {
  referenceId: string;
  customerId: string;
  createdAt: number;
  recipient: { phone_number?: string; email?: string };
  policy: Array<{ method: Method; fallback_time: number }>;
  code: string;
  externalId?: string;
  attempts: number;
  /** Set by finalize. */
  finalized?: { state: 'VERIFIED' | 'REJECTED'; at: number };
  /** Methods already recorded in the outbox. */
  sent: number;
}

export interface Timing {
  deliveryDelayMs: number;
  codeValidityMs: number;
  maxDurationMs: number;
}

export interface Window {
  index: number;
  method: Method;
  start: number;
  /** When its delivery is known. */
  known: number;
  delivered: boolean;
  /** When the next method starts (Infinity for the last). */
  end: number;
}

/** Whether a method reaches the recipient (numbers.ts): SMS by the number's SMS outcome, apps by `apps`, email always; silent and push are not emulated and fail. */
export function deliverable(method: Method, recipient: Verification['recipient']): boolean {
  if (method === 'email') return recipient.email !== undefined;
  if (method === 'silent' || method === 'push' || recipient.phone_number === undefined) return false;
  const outcome = outcomeOf(recipient.phone_number);
  return method === 'sms' ? outcome.sms === 200 : outcome.apps;
}

/** The methods' windows and the moment the verification fails unless finalized before. */
export function timeline(v: Verification, timing: Timing): { windows: Window[]; failAt: number } {
  const windows: Window[] = [];
  let t = v.createdAt;
  const cap = v.createdAt + timing.maxDurationMs;
  for (const [index, step] of v.policy.entries()) {
    if (t >= cap) break;
    const delivered = deliverable(step.method, v.recipient);
    const known = t + timing.deliveryDelayMs;
    const last = index === v.policy.length - 1;
    const end = last ? Infinity : delivered ? t + step.fallback_time * 1000 : known;
    windows.push({ index, method: step.method, start: t, known, delivered, end });
    t = end;
  }
  const final = windows.at(-1)!;
  const failAt = Math.min(cap, final.delivered ? final.start + timing.codeValidityMs : final.known);
  return { windows, failAt };
}

export interface Snapshot {
  state: State;
  /** When the state (or the last method) last changed. */
  updatedAt: number;
  /** The methods started by then. */
  started: Window[];
  /** The method whose code counts now. */
  current: Window | undefined;
  failAt: number;
}

/** Where the verification stands at `now`. */
export function snapshot(v: Verification, timing: Timing, now: number): Snapshot {
  const { windows, failAt } = timeline(v, timing);
  const endedAt = Math.min(v.finalized?.at ?? Infinity, failAt);
  const until = Math.min(now, endedAt);
  const started = windows.filter((w) => w.start <= until);
  const current = started.at(-1);
  let state: State = 'ONGOING';
  if (v.finalized && v.finalized.at <= now && v.finalized.at <= failAt) state = v.finalized.state;
  else if (now >= failAt) state = 'FAILED';
  const events = started.flatMap((w) => [w.start, w.known]).filter((t) => t <= until);
  const updatedAt = state === 'ONGOING' ? Math.max(v.createdAt, ...events) : endedAt;
  return { state, updatedAt, started, current, failAt };
}

/** Delivery status codes of a method (service.md §11.3): 3001 in progress, 3000 delivered, 3003 delivery error. */
export function innerMethods(s: Snapshot, now: number) {
  return s.started.map((w) => {
    const known = w.known <= now;
    const err_code = !known ? 3001 : w.delivered ? 3000 : 3003;
    const superseded = w !== s.current;
    const state: State = known && !w.delivered ? 'FAILED' : superseded ? 'CANCELED' : s.state;
    return { method: w.method, state, err_code };
  });
}

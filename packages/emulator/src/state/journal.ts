import type { VerifyFailure } from '@x/auth';
import type { FaultType } from './faults.js';
import { phoneMatcher } from '../service/phone.js';

/**
 * How a request was judged: `ok` (verified), the reason verification failed, `control` (a control
 * route), `none` (nothing to verify: outside every product, a CORS preflight), or `fault:<type>`
 * when a fault rule decided the answer (`fault:drop`: processed, then the connection was dropped).
 */
export type JournalVerdict = 'ok' | VerifyFailure | 'control' | 'none' | `fault:${FaultType}`;

/** One request the emulator answered. Never holds a key, an Authorization value or a signature. */
export interface JournalEntry {
  /** Increases by one per request, never reused (not even after a reset): pass the last one as `since`. */
  seq: number;
  /** When it arrived, on the emulator's clock (epoch ms). */
  at: number;
  method: string;
  path: string;
  /** The query string without "?", when there was one. */
  query?: string;
  /** How it was authenticated: TSA signature (`digest`), `basic`, or no Authorization header. */
  scheme: 'digest' | 'basic' | 'none';
  /** The customer id it named, when it named one. */
  customerId?: string;
  verdict: JournalVerdict;
  /** On a signature mismatch: the string the emulator signed. `theirs` (the client's) is not on the wire; a client shows it (`AuthenticationError.stringToSign`). */
  stringToSign?: { ours: string; theirs?: string };
  status: number;
  /** The service's code in the answer: `errors[0].code` in the negative family, else `status.code`. */
  serviceCode?: number;
  referenceId?: string;
  /** The numbers the request was about (the recipient, the number looked up, a bulk request's recipients). */
  phoneNumbers?: string[];
  /** The fault rule applied to it, if any (`latency` slows a request that is then processed normally). */
  fault?: FaultType;
  /** Time to answer, real milliseconds (a latency fault included). */
  ms: number;
}

/** Status classes accepted by the status filter besides an exact status. */
export type StatusClass = '1xx' | '2xx' | '3xx' | '4xx' | '5xx';

export interface JournalFilter {
  /** Exact, any case. */
  method?: string;
  /** A prefix of the path: "/v1/verify" finds every Verify request. */
  path?: string;
  /** An HTTP status, or a class such as "4xx". */
  status?: number | StatusClass;
  /** Exact; `fault` finds every `fault:*`. */
  verdict?: string;
  /** In any format the client accepts. */
  phoneNumber?: string;
  referenceId?: string;
  customerId?: string;
  /** Only entries after this `seq`; then the oldest `limit` of them (page forward with the last `seq`). Without it, the newest `limit`. */
  since?: number;
  /** At most this many. Default 100, at most 1000. */
  limit?: number;
}

export const JOURNAL_DEFAULT_LIMIT = 100;
export const JOURNAL_MAX_LIMIT = 1000;
/** Default size of the journal (`journalSize`). */
export const JOURNAL_DEFAULT_SIZE = 1000;
export const JOURNAL_MAX_SIZE = 100_000;

/** Whether an entry passes a filter (the listing, `waitFor({ journal })`); `since` and `limit` are not checked here. */
export function journalPredicate(filter: JournalFilter): (e: JournalEntry) => boolean {
  const phone = filter.phoneNumber ? phoneMatcher(filter.phoneNumber) : undefined;
  const method = filter.method?.toUpperCase();
  const status = filter.status;
  const statusOk =
    status === undefined ? () => true : typeof status === 'number' ? (s: number) => s === status : (s: number) => Math.floor(s / 100) === Number(status[0]);
  const referenceId = filter.referenceId?.toUpperCase();
  return (e) =>
    (!method || e.method === method) &&
    (!filter.path || e.path.startsWith(filter.path)) &&
    statusOk(e.status) &&
    (!filter.verdict || e.verdict === filter.verdict || (filter.verdict === 'fault' && e.verdict.startsWith('fault:'))) &&
    (!phone || (e.phoneNumbers ?? []).some(phone)) &&
    (!referenceId || e.referenceId?.toUpperCase() === referenceId) &&
    (!filter.customerId || e.customerId === filter.customerId);
}

/** The last `size` requests, oldest first: past `size`, the oldest is dropped. It keeps copies and gives copies. */
export class Journal {
  private kept: JournalEntry[] = [];
  private seq = 0;

  constructor(readonly size: number) {}

  /**
   * Records an entry, numbering it here (its `seq` is overwritten: the caller writes a placeholder
   * first, so that `seq` stays the first key); returns it. With size 0, numbers it and keeps nothing.
   */
  add(entry: JournalEntry): JournalEntry {
    entry.seq = ++this.seq;
    if (this.size === 0) return entry;
    this.kept.push(copyOf(entry));
    if (this.kept.length > this.size) this.kept.shift();
    return entry;
  }

  /** With `since`, the oldest `limit` entries after it; without, the newest `limit`. */
  list(filter: JournalFilter = {}): JournalEntry[] {
    const limit = Math.min(filter.limit ?? JOURNAL_DEFAULT_LIMIT, JOURNAL_MAX_LIMIT);
    const matches = journalPredicate(filter);
    const since = filter.since;
    const found = this.kept.filter((e) => (since === undefined || e.seq > since) && matches(e));
    return (since === undefined ? found.slice(-limit) : found.slice(0, limit)).map(copyOf);
  }

  /** Every entry kept, oldest first. */
  entries(): JournalEntry[] {
    return this.kept.map(copyOf);
  }

  /** Puts back the entries of a saved state (the newest `size`); numbering goes on after the last. */
  restore(entries: JournalEntry[]): void {
    for (const entry of entries) {
      this.seq = Math.max(this.seq, entry.seq - 1);
      this.add({ ...entry });
    }
  }

  /** Forgets the entries; numbering goes on. */
  clear(): void {
    this.kept = [];
  }

  get length(): number {
    return this.kept.length;
  }
}

/** A copy of an entry, its keys in the order the journal middleware writes them (a field it lacks stays absent). */
function copyOf(e: JournalEntry): JournalEntry {
  const { seq, at, method, path, scheme, verdict, status, ms } = e;
  const copy: JournalEntry = { seq, at, method, path, scheme, verdict, status, ms };
  if (e.query !== undefined) copy.query = e.query;
  if (e.customerId !== undefined) copy.customerId = e.customerId;
  if (e.stringToSign !== undefined) copy.stringToSign = { ...e.stringToSign };
  if (e.serviceCode !== undefined) copy.serviceCode = e.serviceCode;
  if (e.referenceId !== undefined) copy.referenceId = e.referenceId;
  if (e.phoneNumbers !== undefined) copy.phoneNumbers = [...e.phoneNumbers];
  if (e.fault !== undefined) copy.fault = e.fault;
  return copy;
}

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
/** Default size of the ring (`journalSize`). */
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

/** The last `size` requests, oldest first: a ring that never grows past its size. */
export class Journal {
  private readonly ring: Array<JournalEntry | undefined>;
  private start = 0;
  private count = 0;
  private seq = 0;

  constructor(readonly size: number) {
    this.ring = new Array<JournalEntry | undefined>(size);
  }

  /**
   * Records an entry, numbering it here (its `seq` is overwritten: the caller writes a placeholder
   * first, so that `seq` stays the first key, without a copy of the entry per request); returns it.
   * With size 0, numbers it and keeps nothing.
   */
  add(full: JournalEntry): JournalEntry {
    full.seq = ++this.seq;
    if (this.size === 0) return full;
    if (this.count < this.size) this.ring[(this.start + this.count++) % this.size] = full;
    else {
      this.ring[this.start] = full;
      this.start = (this.start + 1) % this.size;
    }
    return full;
  }

  list(filter: JournalFilter = {}): JournalEntry[] {
    const limit = Math.min(filter.limit ?? JOURNAL_DEFAULT_LIMIT, JOURNAL_MAX_LIMIT);
    const matches = journalPredicate(filter);
    const out: JournalEntry[] = [];
    if (filter.since !== undefined) {
      for (let i = 0; i < this.count && out.length < limit; i++) {
        const e = this.ring[(this.start + i) % this.size]!;
        if (e.seq > filter.since && matches(e)) out.push(e);
      }
      return out;
    }
    for (let i = this.count - 1; i >= 0 && out.length < limit; i--) {
      const e = this.ring[(this.start + i) % this.size]!;
      if (matches(e)) out.push(e);
    }
    return out.reverse();
  }

  /** Every entry kept, oldest first. */
  entries(): JournalEntry[] {
    const out: JournalEntry[] = [];
    for (let i = 0; i < this.count; i++) out.push(this.ring[(this.start + i) % this.size]!);
    return out;
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
    this.ring.fill(undefined);
    this.start = 0;
    this.count = 0;
  }

  get length(): number {
    return this.count;
  }
}

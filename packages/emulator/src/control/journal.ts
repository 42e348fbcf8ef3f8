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

/**
 * The last `size` requests, oldest first: a ring that never grows past its size, kept in columns
 * (numbers in typed arrays, texts in arrays) rather than as an object per request. An entry is
 * made when it is read. Kept as objects, a thousand entries that each outlive a few young
 * collections cost a busy emulator about 8% of its CPU time (BENCHMARKS.md); in columns, a request
 * leaves behind no object of its own but its path.
 */
export class Journal {
  private readonly seqs: Float64Array;
  private readonly times: Float64Array;
  private readonly durations: Float64Array;
  private readonly statuses: Uint16Array;
  /** NaN: no service code. */
  private readonly serviceCodes: Float64Array;
  private readonly texts: Array<Texts | undefined>;
  private start = 0;
  private count = 0;
  private seq = 0;

  constructor(readonly size: number) {
    this.seqs = new Float64Array(size);
    this.times = new Float64Array(size);
    this.durations = new Float64Array(size);
    this.statuses = new Uint16Array(size);
    this.serviceCodes = new Float64Array(size);
    this.texts = new Array<Texts | undefined>(size).fill(undefined);
  }

  /**
   * Records an entry, numbering it here (its `seq` is overwritten: the caller writes a placeholder
   * first, so that `seq` stays the first key); returns it. The journal keeps its fields, not the
   * object. With size 0, numbers it and keeps nothing.
   */
  add(full: JournalEntry): JournalEntry {
    full.seq = ++this.seq;
    if (this.size === 0) return full;
    let slot: number;
    if (this.count < this.size) slot = (this.start + this.count++) % this.size;
    else {
      slot = this.start;
      this.start = (this.start + 1) % this.size;
    }
    this.seqs[slot] = full.seq;
    this.times[slot] = full.at;
    this.durations[slot] = full.ms;
    this.statuses[slot] = full.status;
    this.serviceCodes[slot] = full.serviceCode ?? Number.NaN;
    const phones = full.phoneNumbers;
    // The texts of a slot are rewritten in place once the ring has gone round (no new object per request).
    const texts = (this.texts[slot] ??= new Texts());
    texts.method = full.method;
    texts.path = full.path;
    texts.query = full.query;
    texts.scheme = full.scheme;
    texts.customerId = full.customerId;
    texts.verdict = full.verdict;
    texts.stringToSign = full.stringToSign && { ...full.stringToSign };
    texts.referenceId = full.referenceId;
    texts.phones = phones === undefined ? undefined : phones.length === 1 ? phones[0] : [...phones];
    texts.fault = full.fault;
    return full;
  }

  /** The entry in a slot, made anew (its keys in the order the journal middleware writes them). */
  private entryAt(slot: number): JournalEntry {
    const t = this.texts[slot]!;
    const entry: JournalEntry = { seq: this.seqs[slot]!, at: this.times[slot]!, method: t.method, path: t.path, scheme: t.scheme, verdict: t.verdict, status: this.statuses[slot]!, ms: this.durations[slot]! };
    if (t.query !== undefined) entry.query = t.query;
    if (t.customerId !== undefined) entry.customerId = t.customerId;
    if (t.stringToSign !== undefined) entry.stringToSign = { ...t.stringToSign };
    const serviceCode = this.serviceCodes[slot]!;
    if (!Number.isNaN(serviceCode)) entry.serviceCode = serviceCode;
    if (t.referenceId !== undefined) entry.referenceId = t.referenceId;
    if (t.phones !== undefined) entry.phoneNumbers = typeof t.phones === 'string' ? [t.phones] : [...t.phones];
    if (t.fault !== undefined) entry.fault = t.fault;
    return entry;
  }

  list(filter: JournalFilter = {}): JournalEntry[] {
    const limit = Math.min(filter.limit ?? JOURNAL_DEFAULT_LIMIT, JOURNAL_MAX_LIMIT);
    const matches = journalPredicate(filter);
    const out: JournalEntry[] = [];
    if (filter.since !== undefined) {
      for (let i = 0; i < this.count && out.length < limit; i++) {
        const slot = (this.start + i) % this.size;
        if (this.seqs[slot]! <= filter.since) continue;
        const e = this.entryAt(slot);
        if (matches(e)) out.push(e);
      }
      return out;
    }
    for (let i = this.count - 1; i >= 0 && out.length < limit; i--) {
      const e = this.entryAt((this.start + i) % this.size);
      if (matches(e)) out.push(e);
    }
    return out.reverse();
  }

  /** Every entry kept, oldest first. */
  entries(): JournalEntry[] {
    const out: JournalEntry[] = [];
    for (let i = 0; i < this.count; i++) out.push(this.entryAt((this.start + i) % this.size));
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
    this.texts.fill(undefined);
    this.start = 0;
    this.count = 0;
  }

  get length(): number {
    return this.count;
  }
}

/** The texts of one slot of the journal (an object per slot, reused as the ring goes round). */
class Texts {
  method = '';
  path = '';
  query: string | undefined = undefined;
  scheme: JournalEntry['scheme'] = 'none';
  customerId: string | undefined = undefined;
  verdict: JournalVerdict = 'none';
  stringToSign: JournalEntry['stringToSign'] = undefined;
  referenceId: string | undefined = undefined;
  /** One number as itself, several as an array. */
  phones: string | string[] | undefined = undefined;
  fault: FaultType | undefined = undefined;
}

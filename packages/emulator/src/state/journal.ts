import type { VerifyFailure } from '@x/auth';
import type { FaultType } from './faults.js';
import { phoneMatcher } from '../service/phone.js';
import { Ring } from './ring.js';

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
 * The last `size` requests, oldest first: a ring that never grows past its size, of one object per
 * slot whose fields are rewritten as the ring goes round (a number field is updated in place), not
 * an object per request. An entry is made when it is read. In slots, a request leaves behind no
 * object of its own but its path.
 */
export class Journal {
  private readonly slots: Ring<Slot>;
  private seq = 0;

  constructor(readonly size: number) {
    this.slots = new Ring<Slot>(size);
  }

  /**
   * Records an entry, numbering it here (its `seq` is overwritten: the caller writes a placeholder
   * first, so that `seq` stays the first key); returns it. The journal keeps its fields, not the
   * object. With size 0, numbers it and keeps nothing.
   */
  add(full: JournalEntry): JournalEntry {
    full.seq = ++this.seq;
    if (this.size === 0) return full;
    // Full: the oldest entry's slot takes the new one.
    const slot = this.slots.length === this.size ? this.slots.shift()! : new Slot();
    const phones = full.phoneNumbers;
    slot.seq = full.seq;
    slot.at = full.at;
    slot.method = full.method;
    slot.path = full.path;
    slot.query = full.query;
    slot.scheme = full.scheme;
    slot.customerId = full.customerId;
    slot.verdict = full.verdict;
    slot.stringToSign = full.stringToSign && { ...full.stringToSign };
    slot.status = full.status;
    slot.serviceCode = full.serviceCode;
    slot.referenceId = full.referenceId;
    slot.phones = phones && (phones.length === 1 ? phones[0] : [...phones]);
    slot.fault = full.fault;
    slot.ms = full.ms;
    this.slots.push(slot);
    return full;
  }

  list(filter: JournalFilter = {}): JournalEntry[] {
    const limit = Math.min(filter.limit ?? JOURNAL_DEFAULT_LIMIT, JOURNAL_MAX_LIMIT);
    const matches = journalPredicate(filter);
    const since = filter.since;
    const out: JournalEntry[] = [];
    // With `since`, the oldest after it; without, the newest (then put back in order).
    for (const slot of since === undefined ? this.slots.newest() : this.slots.values()) {
      if (out.length >= limit) break;
      if (since !== undefined && slot.seq <= since) continue;
      const e = entryOf(slot);
      if (matches(e)) out.push(e);
    }
    return since === undefined ? out.reverse() : out;
  }

  /** Every entry kept, oldest first. */
  entries(): JournalEntry[] {
    return [...this.slots.values()].map(entryOf);
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
    this.slots.clear();
  }

  get length(): number {
    return this.slots.length;
  }
}

/** The entry a slot holds, made anew, its keys in the order the journal middleware writes them. */
function entryOf(slot: Slot): JournalEntry {
  const { seq, at, method, path, scheme, verdict, status, ms, query, customerId, stringToSign, serviceCode, referenceId, phones, fault } = slot;
  const optional = { query, customerId, stringToSign: stringToSign && { ...stringToSign }, serviceCode, referenceId, phoneNumbers: phones && (typeof phones === 'string' ? [phones] : [...phones]), fault };
  const entry = { seq, at, method, path, scheme, verdict, status, ms } as JournalEntry & Record<string, unknown>;
  for (const key in optional) if (optional[key as keyof typeof optional] !== undefined) entry[key] = optional[key as keyof typeof optional];
  return entry;
}

/** One slot of the journal: the fields of the entry it holds now (`phones`: one number as itself, several as an array). */
class Slot {
  seq = 0;
  at = 0.5; // a number that is not a small integer: the field holds a double, updated in place
  method = '';
  path = '';
  query: string | undefined = undefined;
  scheme: JournalEntry['scheme'] = 'none';
  customerId: string | undefined = undefined;
  verdict: JournalVerdict = 'none';
  stringToSign: JournalEntry['stringToSign'] = undefined;
  status = 0;
  serviceCode: number | undefined = undefined;
  referenceId: string | undefined = undefined;
  phones: string | string[] | undefined = undefined;
  fault: FaultType | undefined = undefined;
  ms = 0.5;
}

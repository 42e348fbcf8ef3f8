// What the page knows of the emulator, and how it is (re)loaded: each resource read again at most
// once per burst of events, a stale answer never overwriting a newer one.
import type { JournalEntry } from '../../state/journal.js';
import type { FaultRule } from '../../state/faults.js';
import type { OutboxMessage } from '../../state/outbox.js';
import type { CallbackView } from '../../state/callbacks.js';
import type { TransactionView } from '../../state/transactions.js';
import type { DefaultNumberRule, NumberScript } from '../../state/scripts.js';
import { api, ApiError, BASE } from './api.js';
import { $, setResult } from './dom.js';

export const state = {
  outbox: [] as OutboxMessage[],
  transactions: [] as TransactionView[],
  attempts: [] as CallbackView[],
  journal: [] as JournalEntry[],
  faults: [] as FaultRule[],
  numbers: [] as NumberScript[],
  defaults: [] as DefaultNumberRule[],
  clock: undefined as { now: number; offsetMs: number; readAt: number } | undefined,
};
/** Resources this emulator does not serve (404), with the route: shown in their view. */
export const missing = new Map<string, string>();
/** Journal comparisons the user pasted, by seq; outcomes of callback checks, by attempt id. */
export const pasted = new Map<number, string>();
export const checks = new Map<string, { text: string; failed?: boolean }>();

const JOURNAL_LIMIT = 500;
function journalQuery(extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of new FormData($<HTMLFormElement>('journal-form'))) if (String(value).trim()) params.set(name, String(value).trim());
  params.set('limit', String(JOURNAL_LIMIT));
  for (const [name, value] of Object.entries(extra)) params.set(name, value);
  return '?' + params;
}
const lastSeq = () => (state.journal.length ? state.journal[state.journal.length - 1]!.seq : undefined);

/** What a view shows: each has its render function (main.ts registers them). */
export type Target = 'outbox' | 'transactions' | 'callbacks' | 'journal' | 'faults' | 'numbers' | 'clock';
export type Resource = Target | 'journalNew';

interface Loader<T> {
  route: string;
  get: () => Promise<T>;
  apply: (data: T) => void;
  /** The view it renders, when not its own name. */
  as?: Target;
}
const loader = <T>(l: Loader<T>) => l as Loader<unknown>;

const LOADERS: Record<Resource, Loader<unknown>> = {
  outbox: loader({ route: '/outbox', get: () => api<{ messages?: OutboxMessage[] }>('GET', '/outbox'), apply: (d) => (state.outbox = d.messages || []) }),
  transactions: loader({ route: '/transactions', get: () => api<{ transactions?: TransactionView[] }>('GET', '/transactions'), apply: (d) => (state.transactions = d.transactions || []) }),
  callbacks: loader({ route: '/callbacks', get: () => api<{ attempts?: CallbackView[] }>('GET', '/callbacks'), apply: (d) => (state.attempts = d.attempts || []) }),
  journal: loader({ route: '/journal', get: () => api<{ entries?: JournalEntry[] }>('GET', '/journal' + journalQuery()), apply: (d) => (state.journal = d.entries || []) }),
  // Only what is newer than what the page has (an event said there is more).
  journalNew: loader({
    route: '/journal',
    get: () => {
      const since = lastSeq();
      return api<{ entries?: JournalEntry[] }>('GET', '/journal' + (since === undefined ? journalQuery() : journalQuery({ since: String(since) })));
    },
    apply: (d) => {
      const known = new Set(state.journal.map((x) => x.seq));
      const merged = state.journal.concat((d.entries || []).filter((x) => !known.has(x.seq)));
      state.journal = merged.slice(-JOURNAL_LIMIT);
    },
    as: 'journal',
  }),
  faults: loader({ route: '/faults', get: () => api<{ faults?: FaultRule[] }>('GET', '/faults'), apply: (d) => (state.faults = d.faults || []) }),
  numbers: loader({
    route: '/numbers',
    get: () => api<{ numbers?: NumberScript[]; defaults?: DefaultNumberRule[] }>('GET', '/numbers'),
    apply: (d) => {
      state.numbers = d.numbers || [];
      state.defaults = d.defaults || [];
    },
  }),
  clock: loader({ route: '/clock', get: () => api<{ now: number; offsetMs?: number }>('GET', '/clock'), apply: (d) => (state.clock = { now: d.now, offsetMs: d.offsetMs || 0, readAt: Date.now() }) }),
};

const renderers: Partial<Record<Target, () => void>> = {};
/** How each view is drawn from `state` (set once at start). */
export function renderWith(render: Record<Target, () => void>): void {
  Object.assign(renderers, render);
}
export const render = (target: Target): void => renderers[target]?.();

const generation: Partial<Record<Target, number>> = {};

async function load(name: Resource): Promise<void> {
  const l = LOADERS[name];
  const target = l.as || (name as Target);
  const mine = (generation[target] = (generation[target] || 0) + 1);
  try {
    const data = await l.get();
    if (mine !== generation[target]) return;
    l.apply(data);
    missing.delete(target);
  } catch (error) {
    if (mine !== generation[target]) return;
    const status = error instanceof ApiError ? error.status : 0;
    if (status === 404) missing.set(target, 'This emulator does not serve GET ' + BASE + l.route + ': update @x/emulator to see it here.');
    else if (status !== 401 && status !== 403) setResult($('top-result'), (error as Error).message, true);
    else return;
  }
  render(target);
}

const queued = new Set<Resource>();
let flushTimer: ReturnType<typeof setTimeout> | 0 = 0;
/** Loads these resources soon, once, however many events asked for them. */
export function refresh(...names: Resource[]): void {
  for (const name of names) queued.add(name);
  if (!flushTimer) flushTimer = setTimeout(flush, 60);
}
function flush(): Promise<void[]> {
  flushTimer = 0;
  // A whole journal read makes the read of what is new superfluous.
  if (queued.has('journal')) queued.delete('journalNew');
  const names = [...queued];
  queued.clear();
  return Promise.all(names.map(load));
}
export const refreshAll = (): void => refresh('outbox', 'transactions', 'callbacks', 'journal', 'faults', 'numbers', 'clock');

// Faults: the active rules, each with a plain description and a Remove button.
import type { FaultRule } from '../../control/faults.js';
import { act, api } from './api.js';
import { $, h, reconcile } from './dom.js';
import { truncate } from './format.js';
import { refresh, state } from './store.js';
import { setEmpty } from './views.js';

/** A rule as the form or the user wrote it (POST /_emulator/faults checks it). */
export interface Rule {
  type: string;
  [field: string]: unknown;
}
/** The fields of a rule a description reads; `times` is null on the wire for Infinity. */
interface Described {
  type: string;
  status?: number;
  code?: number;
  description?: string;
  ms?: number;
  retryAfterSeconds?: number;
  times?: number | null;
  method?: string;
  path?: string;
  probability?: number;
}

export function describeFault(rule: Rule | FaultRule): string {
  const f = rule as Described;
  const retry = f.retryAfterSeconds !== undefined ? ' (Retry-After ' + f.retryAfterSeconds + ' s)' : '';
  const WHAT: Record<string, () => string> = {
    status: () => 'answer ' + f.status + retry,
    error: () => 'answer ' + f.status + ' with service code ' + f.code + (f.description ? ' “' + f.description + '”' : '') + retry,
    html: () => 'answer an HTML error page ' + (f.status || 502) + retry,
    latency: () => 'answer ' + f.ms + ' ms late',
    reset: () => 'reset the connection before reading the request',
    drop: () => 'process, then drop the connection',
  };
  const what = Object.hasOwn(WHAT, f.type) ? WHAT[f.type]!() : String(f.type);
  const where = (f.method ? f.method + ' ' : 'any method ') + (f.path ? 'on paths starting with ' + f.path : 'on any path');
  const times = f.times === undefined || f.times === 1 ? 'the next request' : f.times === null || f.times === Infinity ? 'every request' : 'the next ' + f.times + ' requests';
  const chance = f.probability !== undefined && f.probability !== 1 ? ' (probability ' + f.probability + ')' : '';
  return truncate(what + ' — ' + times + ', ' + where + chance, 300);
}

export function renderFaults(): void {
  const list = state.faults.map((f, i) => ({ f, i }));
  reconcile($('fault-list'), list, (x) => x.i + ':' + JSON.stringify(x.f), ({ f, i }) => {
    const remove: HTMLButtonElement = h('button', { type: 'button', class: 'secondary', 'data-focus': 'remove-' + i, 'aria-label': 'Remove fault ' + (i + 1) + ': ' + describeFault(f), on: { click: () =>
      void act(remove, $('faults-result'), () => api('DELETE', '/faults/' + i), 'Fault removed.').then((d) => d && refresh('faults')) } }, 'Remove');
    return h('li', { class: 'fault' }, h('p', {}, describeFault(f)), h('code', { class: 'mono wrap' }, JSON.stringify(f)), remove);
  });
  setEmpty('faults', state.faults.length, 'No fault is active: every request is answered normally.');
  $<HTMLButtonElement>('faults-clear').disabled = !state.faults.length;
}

/** Adds a rule (from the form or written as JSON) and shows what it does. */
export function addFault(rule: Rule, button: HTMLButtonElement | null): void {
  void act(button, $('faults-result'), () => api<{ faults?: FaultRule[] }>('POST', '/faults', rule), 'Fault added: ' + describeFault(rule) + '.').then((d) => {
    if (!d) return;
    if (d.faults) {
      state.faults = d.faults;
      renderFaults();
    }
    refresh('faults');
  });
}

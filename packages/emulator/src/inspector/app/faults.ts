// Faults: the active rules, each with a plain description and a Remove button.
import type { FaultRule } from '../../state/faults.js';
import { act, api, ApiError } from './api.js';
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
  chaos?: string;
  copies?: number;
  delayMs?: number;
  phoneNumber?: string;
  product?: string;
  perSecond?: number;
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
    rate: () => 'answer 429 past ' + f.perSecond + ' requests a second of one customer' + retry,
    callback: () => CHAOS[String(f.chaos)]?.() ?? String(f.chaos),
  };
  const CHAOS: Record<string, () => string> = {
    duplicate: () => 'send ' + (f.copies ?? 1) + ' extra ' + (f.copies === undefined || f.copies === 1 ? 'copy' : 'copies'),
    reorder: () => 'send the earlier status after the final one',
    late: () => 'send the earlier status ' + (f.delayMs ?? 5000) + ' ms after the final one',
    drop: () => 'lose the first attempt (the retries follow)',
  };
  const what = Object.hasOwn(WHAT, f.type) ? WHAT[f.type]!() : String(f.type);
  const callback = f.type === 'callback';
  const where = callback
    ? (f.product ? f.product + ' callbacks' : 'any callback') + (f.phoneNumber ? ' about numbers starting with ' + f.phoneNumber : '')
    : (f.method ? f.method + ' ' : 'any method ') + (f.path ? 'on paths starting with ' + f.path : 'on any path');
  const unit = callback ? 'callback' : 'request';
  const times = f.type === 'rate' ? 'every request' : f.times === undefined || f.times === 1 ? 'the next ' + unit : f.times === null || f.times === Infinity ? 'every ' + unit : 'the next ' + f.times + ' ' + unit + 's';
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
export function addFault(rule: Rule, button: HTMLButtonElement | null, form?: HTMLFormElement): void {
  // The field a refusal names is marked in the form (aria-invalid) until the next try.
  for (const el of form ? form.querySelectorAll('[aria-invalid]') : []) el.removeAttribute('aria-invalid');
  const post = async () => {
    try {
      return await api<{ faults?: FaultRule[] }>('POST', '/faults', rule);
    } catch (error) {
      const input = form && error instanceof ApiError && error.field ? form.querySelector<HTMLElement>('[name="' + CSS.escape(error.field) + '"]') : null;
      if (input) {
        input.setAttribute('aria-invalid', 'true');
        input.focus();
      }
      throw error;
    }
  };
  void act(button, $('faults-result'), post, 'Fault added: ' + describeFault(rule) + '.').then((d) => {
    if (!d) return;
    if (d.faults) {
      state.faults = d.faults;
      renderFaults();
    }
    refresh('faults');
  });
}

// What the page's own controls do: advance the clock, reset, the token, an inbound SMS, the
// filters, the fault forms, the views.
import { phoneKey } from '../../service/phone.js';
import { act, api, tokenTyped, useToken } from './api.js';
import { $, setResult } from './dom.js';
import { duration, iso } from './format.js';
import { renderClock } from './clock.js';
import { addFault, type Rule } from './faults.js';
import { renderInbox } from './inbox.js';
import { addScript } from './scripts.js';
import { forget } from './live.js';
import { refresh, refreshAll } from './store.js';
import { renderTransactions } from './transactions.js';
import { showView, viewFromHash } from './views.js';

const submitter = (event: SubmitEvent) => event.submitter as HTMLButtonElement | null;
const value = (id: string) => $<HTMLInputElement>(id).value;

export function wire(): void {
  $('advance-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const ms = Math.round(Number(value('advance-amount')) * Number(value('advance-unit')));
    if (!(ms > 0)) return setResult($('top-result'), 'Enter an amount of time greater than zero.', true);
    void act(submitter(event), $('top-result'), () => api<{ now?: number }>('POST', '/clock/advance', { ms }), (d) => 'Clock advanced by ' + duration(ms) + (d && d.now ? ': now ' + iso(d.now) : '') + '.').then((d) => d && refreshAll());
  });
  const reset = $<HTMLButtonElement>('reset');
  reset.addEventListener('click', () => {
    void act(reset, $('top-result'), () => api('POST', '/reset'), 'Reset: transactions, outbox, callbacks, faults, number scripts and journal are empty.').then((d) => {
      if (!d) return;
      forget();
      refreshAll();
    });
  });
  const tokenForm = $<HTMLFormElement>('token-form');
  tokenForm.addEventListener('submit', (event) => {
    event.preventDefault();
    useToken(value('token').trim());
    tokenForm.hidden = true;
    setResult($('top-result'), 'Token set.', false);
    tokenTyped();
    refreshAll();
  });
  $<HTMLFormElement>('inbound-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    const field = (name: string) => String(data.get(name) ?? '');
    // Numbers as people write them (+1 555-555 0100): the emulator takes the digits.
    const number = (text: string) => phoneKey(text) ?? text.trim();
    const message: Record<string, string> = { from: number(field('from')), to: number(field('to')), text: field('text') };
    if (field('customerId').trim()) message.customerId = field('customerId').trim();
    void act(submitter(event), $('inbound-result'), () => api<{ reference_id: string; callback_url: string }>('POST', '/inbound', message), (d) => 'Sent: reference ' + d.reference_id + ', callback to ' + d.callback_url + '.').then((d) => d && refresh('callbacks', 'journalNew'));
  });
  $('inbox-filter').addEventListener('input', renderInbox);
  $('transactions-filter').addEventListener('input', renderTransactions);
  const journalForm = $<HTMLFormElement>('journal-form');
  journalForm.addEventListener('submit', (event) => {
    event.preventDefault();
    refresh('journal');
  });
  journalForm.addEventListener('reset', () => setTimeout(() => refresh('journal'), 0));
  const clear = $<HTMLButtonElement>('faults-clear');
  clear.addEventListener('click', () => void act(clear, $('faults-result'), () => api('DELETE', '/faults'), 'Every fault cleared.').then((d) => d && refresh('faults')));
  wireFaultForms();
  $<HTMLFormElement>('script-form').addEventListener('submit', (event) => {
    event.preventDefault();
    addScript(value('script-json'), submitter(event));
  });
  window.addEventListener('hashchange', () => showView(viewFromHash(), true));
  setInterval(renderClock, 1000);
}

function wireFaultForms(): void {
  const type = $<HTMLSelectElement>('fault-type');
  const form = $<HTMLFormElement>('fault-form');
  // Each field says which types it belongs to (data-for); the others are hidden and not sent.
  // A callback fault's fields also name its chaos (data-for="callback:late").
  const chaos = $<HTMLSelectElement>('fault-chaos');
  const showFields = () => {
    for (const el of form.querySelectorAll<HTMLElement>('[data-for]')) {
      const wanted = el.getAttribute('data-for')!.split(' ');
      el.hidden = !wanted.includes(type.value) && !wanted.includes(type.value + ':' + chaos.value);
    }
  };
  type.addEventListener('change', showFields);
  chaos.addEventListener('change', showFields);
  showFields();
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const rule: Rule = { type: type.value };
    for (const input of form.querySelectorAll<HTMLInputElement | HTMLSelectElement>('input[name], select[name]:not(#fault-type)')) {
      const holder = input.closest<HTMLElement>('[data-for]');
      const text = input.value.trim();
      if (text === '' || (holder && holder.hidden)) continue;
      rule[input.name] = input.inputMode === 'numeric' || input.inputMode === 'decimal' ? Number(text) : text;
    }
    addFault(rule, submitter(event), form);
  });
  $<HTMLFormElement>('fault-json-form').addEventListener('submit', (event) => {
    event.preventDefault();
    let rule: Rule;
    try {
      rule = JSON.parse(value('fault-json')) as Rule;
    } catch (error) {
      return setResult($('faults-result'), 'The rule is not JSON: ' + (error as Error).message, true);
    }
    addFault(rule, submitter(event));
  });
}

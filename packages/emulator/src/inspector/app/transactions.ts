// Transactions, newest first, each with its status over time and a form to set its final status.
import type { TransactionView } from '../../state/transactions.js';
import { act, api } from './api.js';
import { codeText } from './data.js';
import { $, dl, h, reconcile, setResult } from './dom.js';
import { digits, duration, phoneText, timeEl } from './format.js';
import { refresh, state } from './store.js';
import { setEmpty } from './views.js';

export function renderTransactions(): void {
  const filter = digits($<HTMLInputElement>('transactions-filter').value);
  const list = state.transactions.filter((t) => !filter || digits(t.phoneNumber).includes(filter)).slice().sort((a, b) => b.createdAt - a.createdAt);
  reconcile($('transaction-list'), list, (t) => t.referenceId, renderTransaction);
  setEmpty('transactions', state.transactions.length, state.transactions.length ? 'No transaction to a number matching “' + filter + '”.' : 'No transaction yet.', list.length);
}

function renderTransaction(t: TransactionView): HTMLElement {
  const ref = t.referenceId;
  const status: Partial<TransactionView['status']> = t.status || {};
  const result = h('p', { class: 'result', role: 'status', 'data-keep': 'result' });
  const input = h('input', { id: 'code-' + ref, name: 'code', list: 'status-codes', inputmode: 'numeric', autocomplete: 'off', required: true, 'data-keep': 'code', 'data-focus': 'code-' + ref, placeholder: t.kind === 'voice' ? '100' : '200' });
  const button = h('button', { type: 'submit', 'data-focus': 'set-' + ref }, 'Set final status');
  const form = h('form', { class: 'inline', on: { submit: (event) => {
    event.preventDefault();
    const code = Number(input.value.trim());
    if (!Number.isInteger(code)) return setResult(result, 'Enter a status code, e.g. 200 or 207.', true);
    void act(button, result, () => api<{ transaction?: TransactionView }>('POST', '/transactions/' + encodeURIComponent(ref) + '/status', { code }), (d) => 'Status set to ' + codeText(d.transaction && d.transaction.status ? d.transaction.status.code : code) + '.').then((d) => d && refresh('transactions', 'callbacks'));
  } } }, h('label', { for: 'code-' + ref }, 'Final status'), input, button);
  const start = t.createdAt;
  const verify = t.verify;
  return h('li', {},
    h('article', { class: 'tx' + (t.final ? ' final' : ' pending'), 'aria-labelledby': 'tx-' + ref },
      h('header', {},
        h('h3', { id: 'tx-' + ref }, h('span', { class: 'kind' }, String(t.kind || 'transaction').toUpperCase()), ' ', h('span', { class: 'mono' }, ref)),
        h('span', { class: 'badge ' + (t.final ? 'neutral' : 'wait') }, t.final ? 'Final' : 'In progress')),
      dl([
        ['Status', status.code !== undefined ? status.code + ' ' + (status.description || '') : undefined],
        ['Phone', t.phoneNumber ? phoneText(t.phoneNumber) : undefined],
        ['Customer', t.customerId],
        ['Created', timeEl(t.createdAt)],
        ['Verification', verify ? verify.state + (verify.attempts !== undefined ? ' (' + verify.attempts + (verify.attempts === 1 ? ' attempt)' : ' attempts)') : '') : undefined],
      ]),
      h('h4', {}, 'Status over time'),
      h('ol', { class: 'timeline' }, (t.history || []).map((step) => h('li', {}, h('span', { class: 'mono' }, '+' + duration(step.at - start)), ' ', codeText(step.code)))),
      t.final ? null : form,
      result));
}

// Inbox: one phone per number, newest activity first.
import type { OutboxMessage } from '../../state/outbox.js';
import { $, h, reconcile } from './dom.js';
import { channelName, digits, phoneText, timeEl } from './format.js';
import { state } from './store.js';
import { setEmpty } from './views.js';

export function renderInbox(): void {
  const filter = $<HTMLInputElement>('inbox-filter').value.trim().toLowerCase();
  const wanted = (n: string) => !filter || (digits(filter) ? digits(n).includes(digits(filter)) : String(n).toLowerCase().includes(filter));
  const phones = new Map<string, OutboxMessage[]>();
  for (const m of state.outbox) {
    if (!wanted(m.phoneNumber)) continue;
    if (!phones.has(m.phoneNumber)) phones.set(m.phoneNumber, []);
    phones.get(m.phoneNumber)!.push(m);
  }
  const lastAt = (messages: OutboxMessage[]) => messages[messages.length - 1]!.at;
  const list = [...phones.entries()].map(([phone, messages]) => ({ phone, messages })).sort((a, b) => lastAt(b.messages) - lastAt(a.messages));
  reconcile($('phones'), list, (p) => p.phone, renderPhone);
  setEmpty('inbox', state.outbox.length, state.outbox.length ? 'No message to a number matching “' + filter + '”.' : 'No message has reached a phone yet.', list.length);
}

function renderPhone({ phone, messages }: { phone: string; messages: OutboxMessage[] }): HTMLElement {
  const id = 'phone-' + digits(phone) + '-' + (phone.length % 97);
  return h('article', { class: 'phone', 'aria-labelledby': id },
    h('header', { class: 'phone-top' }, h('h3', { id }, phoneText(phone)), h('span', { class: 'muted' }, messages.length + (messages.length === 1 ? ' message' : ' messages'))),
    h('ol', { class: 'thread' }, messages.map(renderMessage)));
}

function renderMessage(m: OutboxMessage): HTMLElement {
  const call = m.channel === 'voice';
  return h('li', { class: 'bubble ' + (call ? 'call' : 'text') },
    h('p', { class: 'meta' }, h('span', { class: 'channel' }, call ? 'Call' : channelName(m.channel)), ' ', timeEl(m.at), m.senderId ? ' · from ' + m.senderId : '', ' · ' + m.product),
    h('p', { class: 'body' }, call ? [h('span', { class: 'visually-hidden' }, 'The call said: '), '“' + m.text + '”'] : m.text),
    m.code ? h('p', { class: 'code' }, 'Code ', h('strong', { class: 'mono' }, m.code)) : null,
    h('p', { class: 'ref muted' }, 'Reference ', h('span', { class: 'mono' }, m.referenceId)));
}

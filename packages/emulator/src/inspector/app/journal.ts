// Journal, newest first; a signature failure gets a row with the strings to sign, line by line,
// and a box to paste what the client signed.
import type { JournalEntry } from '../../state/journal.js';
import { $, h, reconcile, type Child } from './dom.js';
import { timeEl } from './format.js';
import { pasted, state } from './store.js';
import { setEmpty } from './views.js';

export function renderJournal(): void {
  const list = state.journal.slice().reverse();
  const table = $<HTMLTableElement>('journal-table');
  reconcile(table, list.map((entry) => ({ entry, theirs: pasted.get(entry.seq) })), (x) => 'j' + x.entry.seq, renderEntry, table.tHead);
  const filtered = [...new FormData($<HTMLFormElement>('journal-form')).values()].some((v) => String(v).trim());
  setEmpty('journal', state.journal.length, filtered ? 'No request matches this filter.' : 'No request yet.');
}

function verdictClass(v: string): 'good' | 'neutral' | 'bad' {
  if (v === 'ok') return 'good';
  if (v === 'control') return 'neutral';
  return 'bad';
}

function renderEntry({ entry: j, theirs }: { entry: JournalEntry; theirs: string | undefined }): HTMLElement {
  const cell = (label: string, ...content: Child[]) => h('td', { 'data-label': label }, content);
  const row = h('tr', { class: verdictClass(j.verdict) === 'bad' ? 'refused' : '' },
    cell('#', String(j.seq)),
    cell('Time', timeEl(j.at)),
    cell('Request', h('span', { class: 'method' }, j.method), ' ', h('span', { class: 'path wrap' }, j.path + (j.query ? '?' + j.query : ''))),
    cell('Auth', j.scheme, j.customerId ? h('span', { class: 'customer mono wrap', title: j.customerId }, j.customerId) : null),
    cell('Verdict', h('span', { class: 'badge ' + verdictClass(j.verdict) }, j.verdict)),
    cell('Status', String(j.status) + (j.serviceCode !== undefined ? ' · ' + j.serviceCode : '')),
    cell('Reference', j.referenceId ? h('span', { class: 'mono wrap' }, j.referenceId) : ''),
    cell('ms', j.ms !== undefined ? String(Math.round(j.ms)) : ''));
  const body = h('tbody', {}, row);
  if (j.stringToSign) body.append(h('tr', { class: 'detail' }, h('td', { colspan: '8' }, renderStrings(j, j.stringToSign, theirs))));
  return body;
}

/** The lines of a string to sign, numbered, with invisible characters made visible. */
function visible(line: string): string {
  return line.replace(/\t/g, '→').replace(/\r/g, '␍').replace(/ +$/, (s) => '·'.repeat(s.length)) || '(empty line)';
}

function renderLines(text: string, other: string | undefined, label: string): HTMLElement {
  const lines = text.split('\n');
  const others = other === undefined ? undefined : other.split('\n');
  return h('ol', { class: 'sts mono', 'aria-label': label }, lines.map((line, i) => {
    const differs = others !== undefined && others[i] !== line;
    return h('li', { class: differs ? 'differs' : '' }, differs ? h('mark', {}, visible(line), h('span', { class: 'visually-hidden' }, ' (differs)')) : visible(line));
  }));
}

function renderStrings(j: JournalEntry, strings: NonNullable<JournalEntry['stringToSign']>, pastedTheirs: string | undefined): HTMLElement {
  const ours = strings.ours;
  const theirs = strings.theirs !== undefined ? strings.theirs : pastedTheirs;
  const id = 'theirs-' + j.seq;
  const box = h('div', { class: 'strings' },
    h('div', {}, h('h4', {}, 'The emulator signed'), renderLines(ours, theirs, 'The emulator signed')),
    h('div', {}, h('h4', {}, 'Your client signed'), theirs !== undefined ? renderLines(theirs, ours, 'Your client signed') : h('p', { class: 'muted' }, 'Not on the wire: paste it below.')));
  const summary = h('p', { class: 'diff-summary', role: 'status' }, theirs === undefined ? '' : diffSummary(ours, theirs));
  const input = h('textarea', { id, rows: '4', class: 'mono', spellcheck: 'false', 'data-keep': 'theirs', 'data-focus': id });
  const compare = h('button', { type: 'submit', 'data-focus': 'compare-' + j.seq }, 'Compare');
  const form = strings.theirs !== undefined ? null : h('form', { class: 'paste', on: { submit: (event) => {
    event.preventDefault();
    pasted.set(j.seq, input.value.replace(/\r\n/g, '\n'));
    renderJournal();
  } } }, h('label', { for: id }, 'Paste what your client signed (error.stringToSign, or the stringToSign field of its debug log)'), input, compare);
  return h('section', { class: 'signature', 'aria-label': 'Signature failure of request ' + j.seq }, h('h3', {}, 'Signature failure: the strings to sign'), box, summary, form);
}

function diffSummary(ours: string, theirs: string): string {
  if (ours === theirs) return 'The strings are identical: the signature differs because the key does. Check the API key (and that it is the base64 text, decoded).';
  const a = ours.split('\n');
  const b = theirs.split('\n');
  const lines: number[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) if (a[i] !== b[i]) lines.push(i + 1);
  const first = lines[0]! - 1;
  return 'Line' + (lines.length > 1 ? 's ' + lines.join(', ') + ' differ' : ' ' + lines[0] + ' differs') + ': the emulator signed ' + JSON.stringify(a[first] === undefined ? '(nothing)' : a[first]) + ', your client ' + JSON.stringify(b[first] === undefined ? '(nothing)' : b[first]) + '.';
}

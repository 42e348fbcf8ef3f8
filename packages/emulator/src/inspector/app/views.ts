// The views: which one the address names, showing it, and the line under its list.
import { $ } from './dom.js';
import { missing } from './store.js';

export const VIEWS = ['inbox', 'transactions', 'callbacks', 'journal', 'faults'] as const;
export type View = (typeof VIEWS)[number];

export function viewFromHash(): View {
  const first = location.hash.replace(/^#/, '').split('&')[0];
  return (VIEWS as readonly string[]).includes(first!) ? (first as View) : 'inbox';
}

export function showView(name: View, moveFocus: boolean): void {
  for (const id of VIEWS) $(id).hidden = id !== name;
  for (const link of document.querySelectorAll('nav a[data-view]')) {
    if (link.getAttribute('data-view') === name) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  document.title = $(name + '-h').textContent + ' · Emulator inspector';
  if (moveFocus) $(name + '-h').focus();
}

/** The line under a list: why it is empty (nothing yet, nothing matches, not served); the count in the navigation. */
export function setEmpty(view: View, count: number, text: string, shown?: number): void {
  const el = $(view + '-empty');
  const why = missing.get(view === 'inbox' ? 'outbox' : view);
  el.hidden = (shown === undefined ? count : shown) > 0 && !why;
  el.textContent = why || text;
  el.classList.toggle('error', Boolean(why));
  const badge = document.getElementById('count-' + view);
  if (badge) badge.textContent = count ? String(count) : '';
}

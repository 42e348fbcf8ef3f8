// Callbacks: every delivery attempt, newest first; its body checked against the recorded SHA-256,
// or copied as curl with the full signature (fetched for that only, never shown).
import type { CallbackView } from '../../state/callbacks.js';
import { act, api } from './api.js';
import { dl, h, reconcile, $ } from './dom.js';
import { timeEl } from './format.js';
import { checks, refresh, state } from './store.js';
import { setEmpty } from './views.js';

/** The exact signed body and the headers as sent. */
interface Raw {
  body: string;
  headers?: Record<string, string>;
}

function attemptId(a: CallbackView, i: number): string {
  return a.id !== undefined ? String(a.id) : a.referenceId + '-' + a.attempt + '-' + a.at + '-' + i;
}

export function renderCallbacks(): void {
  const list = state.attempts.map((a, i) => ({ a, key: attemptId(a, i), check: checks.get(attemptId(a, i)) })).reverse();
  reconcile($('callback-list'), list, (x) => x.key, renderAttempt);
  setEmpty('callbacks', state.attempts.length, 'No callback sent yet.');
}

/**
 * What a callback is about, as its payload says it, for the card's header: its `sub_resource` (or
 * voice `event`) and the status it reports (`status`, or a Verify API `state`).
 */
function about(payload: unknown): string {
  if (typeof payload !== 'object' || payload === null) return '';
  const p = payload as { sub_resource?: unknown; event?: unknown; state?: unknown; status?: { code?: unknown; description?: unknown } };
  const status = typeof p.status === 'object' && p.status !== null && p.status.code !== undefined ? [p.status.code, p.status.description].filter((x) => x !== undefined).join(' ') : undefined;
  return [p.sub_resource, p.event, status, p.state].filter((x) => typeof x === 'string' && x !== '').join(' · ');
}

function renderAttempt({ a, key, check }: { a: CallbackView; key: string; check: { text: string; failed?: boolean } | undefined }): HTMLElement {
  const ok = a.ok !== undefined ? a.ok : a.status !== undefined && a.status >= 200 && a.status < 300;
  const result = h('p', { class: 'result' + (check && check.failed ? ' error' : ''), role: 'status' }, check ? check.text : '');
  const canAct = a.id !== undefined;
  const resend: HTMLButtonElement = h('button', { type: 'button', 'data-focus': 'resend-' + key, disabled: !canAct, on: { click: () =>
    void act(resend, result, () => api('POST', '/callbacks/' + encodeURIComponent(a.id) + '/resend'), 'Re-sent as a new attempt.').then((d) => d && refresh('callbacks')) } }, 'Re-send');
  const verify: HTMLButtonElement = h('button', { type: 'button', 'data-focus': 'check-' + key, disabled: !canAct, on: { click: () => void checkBody(a, key, verify, result) } }, 'Check body');
  const curl: HTMLButtonElement = h('button', { type: 'button', 'data-focus': 'curl-' + key, disabled: !canAct, on: { click: () => void copyCurl(a, curl, result) } }, 'Copy as curl');
  const headers = Object.entries(a.headers || {});
  const payload = a.payload !== undefined ? JSON.stringify(a.payload, null, 2) : (a as { body?: string }).body;
  return h('li', {},
    h('article', { class: 'attempt ' + (ok ? 'ok' : 'failed'), 'aria-labelledby': 'cb-' + key },
      h('header', {},
        h('h3', { id: 'cb-' + key }, h('span', { class: 'badge ' + (ok ? 'good' : 'bad') }, a.status !== undefined ? String(a.status) : 'no answer'), ' ', h('span', { class: 'url' }, 'POST ' + a.url)),
        h('p', { class: 'about' }, about(a.payload))),
      dl([
        ['Attempt', a.attempt !== undefined ? String(a.attempt) + (a.id !== undefined ? ' (#' + a.id + ')' : '') : undefined],
        ['Re-sent from', a.resentFrom !== undefined ? '#' + a.resentFrom : undefined],
        ['Reference', a.referenceId ? h('span', { class: 'mono' }, a.referenceId) : undefined],
        ['Sent', timeEl(a.at)],
        ['Latency', a.ms !== undefined ? Math.round(a.ms) + ' ms' : undefined],
        ['Error', a.error !== undefined ? [a.error, a.cause, a.address].filter((part) => part !== undefined).join(' ') : undefined],
        ['Next attempt', a.nextAttemptAt !== undefined ? timeEl(a.nextAttemptAt) : undefined],
      ]),
      a.bodySha256 ? h('p', { class: 'sha' }, h('span', { class: 'muted' }, 'Body SHA-256: '), h('span', { class: 'mono wrap' }, a.bodySha256)) : null,
      h('details', { 'data-keep': 'headers' }, h('summary', {}, 'Signed headers (' + headers.length + ')'), dl(headers.map(([n, v]) => [n, h('span', { class: 'mono wrap' }, v)] as const), 'facts headers mono')),
      payload !== undefined ? h('details', { 'data-keep': 'payload' }, h('summary', {}, 'Payload'), h('pre', { class: 'mono' }, payload)) : null,
      h('div', { class: 'buttons' }, resend, verify, curl),
      result));
}

async function sha256Hex(text: string): Promise<string | undefined> {
  if (!globalThis.crypto || !crypto.subtle) return undefined;
  const hash = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(hash)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

async function checkBody(a: CallbackView, key: string, button: HTMLButtonElement, result: HTMLElement): Promise<void> {
  const outcome = await act(button, result, async () => {
    const raw = await api<Raw>('GET', '/callbacks/' + encodeURIComponent(a.id) + '/raw');
    const hex = await sha256Hex(raw.body);
    const shown = String((a.headers || {}).authorization || '').replace(/…$/, '');
    const signed = String((raw.headers || {}).authorization || '');
    const bytes = new TextEncoder().encode(raw.body).length;
    const problems: string[] = [];
    if (a.bodySha256 && hex && hex !== a.bodySha256) problems.push('the body does not hash to the recorded SHA-256');
    if (shown && !signed.startsWith(shown)) problems.push('the signature does not start as the one shown');
    if (problems.length) throw new Error('Check failed: ' + problems.join('; ') + '.');
    return 'Checked: the exact signed body (' + bytes + ' bytes) ' + (hex ? 'hashes to the recorded SHA-256' : 'was read (this page cannot hash it: not a secure context)') + ' and its signature starts as shown. Verify it with your key: verifyCallback with this body and these headers.';
  }, (text) => text);
  checks.set(key, outcome ? { text: outcome } : { text: result.textContent || '', failed: true });
}

const shellQuote = (s: string) => "'" + String(s).replace(/'/g, "'\\''") + "'";

async function copyCurl(a: CallbackView, button: HTMLButtonElement, result: HTMLElement): Promise<void> {
  await act(button, result, async () => {
    const raw = await api<Raw>('GET', '/callbacks/' + encodeURIComponent(a.id) + '/raw');
    const parts = ['curl', '-X', 'POST', shellQuote(a.url)];
    for (const [name, value] of Object.entries(raw.headers || {})) parts.push('-H', shellQuote(name + ': ' + value));
    parts.push('--data-binary', shellQuote(raw.body));
    if (!navigator.clipboard) throw new Error('This browser gives the page no clipboard here (not a secure context).');
    await navigator.clipboard.writeText(parts.join(' '));
  }, 'Copied: the curl command (with the full signature) is on the clipboard.');
}

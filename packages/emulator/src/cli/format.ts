// What the CLI prints for each request and callback attempt: one line of text (coloured on a
// terminal only), or one JSON object per line with --json. Pure functions: the tests call them.
import type { CallbackView } from '../state/callbacks.js';
import type { JournalEntry } from '../state/journal.js';
import { maskCredentials } from '../service/url.js';

export interface Style {
  /** ANSI colours: only when stdout is a terminal (and NO_COLOR is not set). */
  color: boolean;
}

const paint = (style: Style, code: string, text: string) => (style.color ? `\x1b[${code}m${text}\x1b[0m` : text);
const dim = (style: Style, text: string) => paint(style, '2', text);
const byStatus = (style: Style, status: number, text: string) => paint(style, status >= 500 ? '31' : status >= 400 ? '33' : status >= 300 ? '36' : '32', text);

/** HH:MM:SS of the emulator's clock, in UTC (the clock may have been advanced). */
export const clockTime = (at: number) => new Date(at).toISOString().slice(11, 19);

/** `12:00:01 POST /v1/messaging 200 290 ok 3.1ms`: method, path, status, service code, verdict, time. */
export function requestLine(entry: JournalEntry, style: Style): string {
  const verdict = entry.verdict === 'ok' || entry.verdict === 'control' || entry.verdict === 'none' ? entry.verdict : paint(style, '31', entry.verdict);
  const parts = [
    dim(style, clockTime(entry.at)),
    entry.method,
    entry.path,
    byStatus(style, entry.status, String(entry.status)),
    entry.serviceCode === undefined ? '-' : String(entry.serviceCode),
    verdict,
    dim(style, `${entry.ms}ms`),
  ];
  if (entry.fault !== undefined && !entry.verdict.startsWith('fault:')) parts.push(paint(style, '35', `fault:${entry.fault}`));
  if (entry.verdict === 'signature_mismatch') parts.push(dim(style, '(GET /_emulator/journal?verdict=signature_mismatch has the string to sign)'));
  return parts.join(' ');
}

/** `12:00:02 callback #3 -> http://127.0.0.1:3000/cb 204 12ms attempt 1 ref 0123...`. */
export function callbackLine(view: CallbackView, style: Style): string {
  const why = [view.error ?? 'no answer', view.cause, view.address].filter((part) => part !== undefined).join(' ');
  const outcome = view.status !== undefined ? byStatus(style, view.status, String(view.status)) : paint(style, '31', `failed (${why})`);
  const parts = [dim(style, clockTime(view.at)), `callback #${view.id}`, '->', maskCredentials(view.url), outcome];
  if (view.ms !== undefined) parts.push(dim(style, `${view.ms}ms`));
  parts.push(`attempt ${view.attempt}`);
  if (view.resentFrom !== undefined) parts.push(`re-send of #${view.resentFrom}`);
  if (view.nextAttemptAt !== undefined) parts.push(`next attempt ${clockTime(view.nextAttemptAt)}`);
  parts.push(dim(style, `ref ${view.referenceId}`));
  return parts.join(' ');
}

/** The --json line of a request: the journal entry. */
export const requestJson = (entry: JournalEntry) => JSON.stringify({ type: 'request', ...entry });

/** The --json line of a callback attempt: what happened, without the payload and headers. */
export function callbackJson(view: CallbackView): string {
  const { payload: _payload, headers: _headers, verifiable: _verifiable, ...rest } = view;
  return JSON.stringify({ type: 'callback', ...rest, url: maskCredentials(view.url) });
}

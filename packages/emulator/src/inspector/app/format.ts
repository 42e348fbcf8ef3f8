// Times, durations, numbers and names as the page shows them.
import { h } from './dom.js';

export const iso = (ms: number | undefined): string => (Number.isFinite(ms) ? new Date(ms!).toISOString() : '');

/** A <time> for an instant (hh:mm:ss.mmm, UTC), or a dash when there is none. */
export const timeEl = (ms: number | undefined): HTMLElement =>
  Number.isFinite(ms) ? h('time', { datetime: iso(ms), title: iso(ms) }, iso(ms).slice(-13, -1)) : h('span', { class: 'muted' }, '–');

export function duration(ms: number): string {
  const a = Math.abs(ms);
  if (a < 1000) return Math.round(ms) + ' ms';
  if (a < 120000) return (ms / 1000).toFixed(a < 10000 ? 1 : 0) + ' s';
  if (a < 7200000) return Math.round(ms / 60000) + ' min';
  if (a < 172800000) return (ms / 3600000).toFixed(1) + ' h';
  return (ms / 86400000).toFixed(1) + ' days';
}

export const phoneText = (n: unknown): string => (/^\d+$/.test(String(n)) ? '+' + n : String(n));
export const digits = (s: unknown): string => String(s).replace(/[^0-9]/g, '');
export const truncate = (s: unknown, n: number): string => (String(s).length > n ? String(s).slice(0, n - 1) + '…' : String(s));

const CHANNELS: Readonly<Record<string, string>> = { sms: 'SMS', voice: 'Call', whatsapp: 'WhatsApp', viber: 'Viber', rcs: 'RCS', email: 'Email' };
export const channelName = (c: unknown): string => CHANNELS[String(c)] || String(c || 'Message');

// Live updates: the event stream (server-sent events read with fetch, so that the control token can
// go in a header), what each event refreshes, and what screen readers are told.
import { askForToken, authHeaders, BASE, tokenGiven } from './api.js';
import { $ } from './dom.js';
import { channelName, phoneText, truncate } from './format.js';
import { checks, pasted, refresh, refreshAll } from './store.js';

let announceTimer: ReturnType<typeof setTimeout> | undefined;
let announcements: string[] = [];
/** Tells screen readers about new items (aria-live="polite"), a few at a time. */
function announce(text: string): void {
  announcements.push(text);
  clearTimeout(announceTimer);
  announceTimer = setTimeout(() => {
    const n = announcements.length;
    $('announcer').textContent = n > 3 ? n + ' updates; the last: ' + announcements[n - 1] : announcements.join('. ');
    announcements = [];
  }, 300);
}

function setLive(kind: string, text: string): void {
  const el = $('live-state');
  el.setAttribute('data-state', kind);
  el.textContent = text;
}

/** The fields of an event's data the page reads (each event carries one item of its kind). */
interface EventItem {
  channel?: string;
  phoneNumber?: string;
  text?: string;
  status?: { code?: number; description?: string } | number;
  final?: boolean;
  referenceId?: string;
  url?: string;
  error?: string;
  verdict?: string;
  method?: string;
  path?: string;
}

/** The page's state was emptied (a reset from here or elsewhere): forget what was pasted and checked. */
export function forget(): void {
  pasted.clear();
  checks.clear();
}

function onEvent(name: string, data: string): void {
  let item: EventItem = {};
  try {
    item = data ? (JSON.parse(data) as EventItem) : {};
  } catch {
    // Not JSON: the event still says what changed.
  }
  switch (name) {
    case 'outbox':
      refresh('outbox');
      announce('New ' + channelName(item.channel) + ' to ' + phoneText(item.phoneNumber) + (item.text ? ': ' + truncate(item.text, 100) : ''));
      break;
    case 'transaction': {
      refresh('transactions');
      const status = item.status;
      if (typeof status === 'object' && status && item.final) announce('Transaction ' + truncate(item.referenceId || '', 12) + ': ' + status.code + ' ' + (status.description || ''));
      break;
    }
    case 'callback':
      refresh('callbacks');
      announce('Callback to ' + (item.url || '') + ': ' + (item.status || item.error || 'sent'));
      break;
    case 'journal':
      // The page's own reads are control requests: refreshing on them would never end.
      if (item.verdict === 'control' && item.method === 'GET') break;
      refresh('journalNew');
      if (item.verdict && item.verdict !== 'ok' && item.verdict !== 'control') announce('Request refused (' + item.verdict + '): ' + item.method + ' ' + item.path);
      break;
    case 'faults':
    case 'numbers':
    case 'clock':
      refresh(name);
      break;
    case 'reset':
      forget();
      refreshAll();
      announce('The emulator was reset.');
      break;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let polling: ReturnType<typeof setInterval> | 0 = 0;

/**
 * Reads the event stream, reconnecting with a growing pause. An emulator without
 * GET /_emulator/events is polled every second instead.
 */
export async function listen(): Promise<void> {
  let pause = 500;
  for (;;) {
    let response: Response | undefined;
    try {
      response = await fetch(BASE + '/events', { headers: authHeaders({ accept: 'text/event-stream' }), cache: 'no-store' });
    } catch {
      response = undefined;
    }
    if (response && response.status === 404) return startPolling();
    if (response && (response.status === 401 || response.status === 403)) {
      setLive('offline', 'Not connected: the emulator refused this page');
      const body = (await response.json().catch(() => ({}))) as { code?: string; error?: string };
      if (body.code === 'token_required' || body.code === 'invalid_token') askForToken(body.error);
      await tokenGiven();
      continue;
    }
    if (response && response.ok && response.body) {
      setLive('live', 'Live');
      pause = 500;
      refreshAll();
      try {
        await readEvents(response.body);
      } catch {
        // The stream broke: reconnect below.
      }
    }
    setLive('offline', 'Reconnecting…');
    await sleep(pause);
    pause = Math.min(pause * 2, 10000);
  }
}

async function readEvents(body: NonNullable<Response['body']>): Promise<void> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer = (buffer + value).replace(/\r\n?/g, '\n');
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let name = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') name = text;
        else if (field === 'data') data.push(text);
      }
      if (data.length || name !== 'message') onEvent(name, data.join('\n'));
    }
  }
}

function startPolling(): void {
  setLive('polling', 'Polling every second');
  if (!polling) polling = setInterval(() => refresh('outbox', 'transactions', 'callbacks', 'journalNew', 'faults', 'numbers', 'clock'), 1000);
  refreshAll();
}

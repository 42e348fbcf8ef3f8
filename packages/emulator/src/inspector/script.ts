/**
 * The inspector's browser code: a plain ES module, served as is (no build step, no dependency).
 * It builds every element with the DOM API and puts values in with textContent, never innerHTML:
 * an SMS body or a request path is always text. Written without template literals, so that it can
 * live in this String.raw template unchanged.
 */
export const INSPECTOR_SCRIPT = String.raw`// Emulator inspector (served by @x/emulator). Reads and changes the emulator through /_emulator/*.
const BASE = '/_emulator';
const VIEWS = ['inbox', 'transactions', 'callbacks', 'journal', 'faults'];
const TOKEN_KEY = 'x-emulator-control-token';
const $ = (id) => document.getElementById(id);

// ---- Elements -------------------------------------------------------------------------------
/** h('p', { class: 'x', text: 'y' }, child, ...): attributes by setAttribute, text by text nodes. */
function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'text') el.textContent = String(value);
    else if (name === 'on') for (const [type, fn] of Object.entries(value)) el.addEventListener(type, fn);
    else if (value === true) el.setAttribute(name, '');
    else el.setAttribute(name, String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false || child === '') continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

const pad = (n, w) => String(n).padStart(w || 2, '0');
function clockTime(ms) {
  const d = new Date(ms);
  return pad(d.getUTCHours()) + ':' + pad(d.getUTCMinutes()) + ':' + pad(d.getUTCSeconds()) + '.' + pad(d.getUTCMilliseconds(), 3);
}
const iso = (ms) => (Number.isFinite(ms) ? new Date(ms).toISOString() : '');
const timeEl = (ms) => (Number.isFinite(ms) ? h('time', { datetime: iso(ms), title: iso(ms) }, clockTime(ms)) : h('span', { class: 'muted' }, '–'));
function duration(ms) {
  const a = Math.abs(ms);
  if (a < 1000) return Math.round(ms) + ' ms';
  if (a < 120000) return (ms / 1000).toFixed(a < 10000 ? 1 : 0) + ' s';
  if (a < 7200000) return Math.round(ms / 60000) + ' min';
  if (a < 172800000) return (ms / 3600000).toFixed(1) + ' h';
  return (ms / 86400000).toFixed(1) + ' days';
}
const phoneText = (n) => (/^\d+$/.test(String(n)) ? '+' + n : String(n));
const digits = (s) => String(s).replace(/[^0-9]/g, '');
const truncate = (s, n) => (String(s).length > n ? String(s).slice(0, n - 1) + '…' : String(s));
const CHANNELS = { sms: 'SMS', voice: 'Call', whatsapp: 'WhatsApp', viber: 'Viber', rcs: 'RCS', email: 'Email' };
const channelName = (c) => CHANNELS[c] || String(c || 'Message');
const CODES = new Map(JSON.parse(document.getElementById('status-codes').dataset.codes || '[]'));
// The status codes offered when setting a final status, made from the data the page carries.
document.getElementById('status-codes').append(...[...CODES].map(([code, text]) => h('option', { value: String(code) }, code + ' ' + text)));
const codeText = (code) => (CODES.has(Number(code)) ? code + ' ' + CODES.get(Number(code)) : String(code));

/** A definition list from [term, value] pairs; values that are undefined are left out. */
function dl(pairs, cls) {
  return h('dl', { class: cls || 'facts' }, pairs.filter((p) => p[1] !== undefined && p[1] !== null && p[1] !== '').map(([t, v]) => h('div', {}, h('dt', {}, t), h('dd', {}, v))));
}

/**
 * Puts one element per item in container, in order, reusing the element of a key whose item did
 * not change. A changed item's element is replaced, keeping what the user typed or opened
 * ([data-keep]) and the focus ([data-focus]).
 */
function reconcile(container, items, keyOf, render, after) {
  const active = document.activeElement;
  const focusKey = active && container.contains(active) ? active.getAttribute('data-focus') : null;
  const existing = new Map();
  for (const child of [...container.children]) if (child.hasAttribute('data-key')) existing.set(child.getAttribute('data-key'), child);
  let previous = null;
  for (const item of items) {
    const key = String(keyOf(item));
    const signature = JSON.stringify(item);
    let el = existing.get(key);
    existing.delete(key);
    if (!el || el._signature !== signature) {
      const fresh = render(item);
      if (el) keepState(el, fresh);
      if (el) el.replaceWith(fresh);
      el = fresh;
    }
    el.setAttribute('data-key', key);
    el._signature = signature;
    const expected = previous ? previous.nextSibling : after ? after.nextSibling : container.firstChild;
    if (el !== expected) container.insertBefore(el, expected);
    previous = el;
  }
  for (const el of existing.values()) el.remove();
  if (focusKey && !container.contains(document.activeElement)) {
    const target = [...container.querySelectorAll('[data-focus]')].find((x) => x.getAttribute('data-focus') === focusKey);
    if (target) target.focus();
  }
}
function keepState(from, to) {
  for (const old of from.querySelectorAll('[data-keep]')) {
    const twin = [...to.querySelectorAll('[data-keep]')].find((x) => x.getAttribute('data-keep') === old.getAttribute('data-keep'));
    if (!twin) continue;
    if (old.tagName === 'DETAILS') twin.open = old.open;
    else if ('value' in old) twin.value = old.value;
    else {
      twin.textContent = old.textContent;
      twin.className = old.className;
    }
  }
}

// ---- Talking to the emulator ----------------------------------------------------------------
let token = '';
try {
  token = sessionStorage.getItem(TOKEN_KEY) || '';
} catch {}

class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

function authHeaders(extra) {
  const headers = Object.assign({}, extra);
  if (token) headers.authorization = 'Bearer ' + token;
  return headers;
}

async function api(method, path, body) {
  let response;
  try {
    response = await fetch(BASE + path, {
      method,
      headers: authHeaders(body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' }),
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
    });
  } catch (error) {
    throw new ApiError(0, 'unreachable', 'The emulator did not answer (' + error.message + '): is it still running?');
  }
  const text = await response.text();
  let data = {};
  try {
    data = text ? JSON.parse(text) : {};
  } catch {
    data = { error: truncate(text, 200) };
  }
  if (!response.ok) {
    const code = data.code || 'http_' + response.status;
    if (code === 'token_required' || code === 'invalid_token') askForToken(data.error);
    const message = data.error || (data.status && data.status.description) || 'HTTP ' + response.status;
    throw new ApiError(response.status, code, message + (data.field ? ' (field: ' + data.field + ')' : ''));
  }
  return data;
}

function askForToken(message) {
  const form = $('token-form');
  if (!form.hidden) return;
  form.hidden = false;
  setResult($('top-result'), message || 'This emulator requires its control token.', true);
  $('token').focus();
}

/** Shows the outcome of an action next to it (a role=status region: read out politely). */
function setResult(el, text, failed) {
  if (!el) return;
  el.textContent = text;
  el.classList.toggle('error', Boolean(failed));
}

/** Runs an action from a form or button: disables it meanwhile, shows the outcome. */
async function act(button, resultEl, run, done) {
  if (button) button.disabled = true;
  try {
    const value = await run();
    setResult(resultEl, typeof done === 'function' ? done(value) : done || 'Done.', false);
    return value;
  } catch (error) {
    setResult(resultEl, error.message, true);
    return undefined;
  } finally {
    if (button) button.disabled = false;
  }
}

// ---- State, loading ---------------------------------------------------------------------------
const state = { outbox: [], transactions: [], attempts: [], journal: [], faults: [], clock: undefined };
/** Resources this emulator does not serve (404), with the route: shown in their view. */
const missing = new Map();
/** Journal comparisons the user pasted, by seq; outcomes of callback checks, by attempt id. */
const pasted = new Map();
const checks = new Map();

const JOURNAL_LIMIT = 500;
function journalQuery(extra) {
  const params = new URLSearchParams();
  for (const [name, value] of new FormData($('journal-form'))) if (String(value).trim()) params.set(name, String(value).trim());
  params.set('limit', String(JOURNAL_LIMIT));
  for (const [name, value] of Object.entries(extra || {})) params.set(name, value);
  return '?' + params;
}
const lastSeq = () => (state.journal.length ? state.journal[state.journal.length - 1].seq : undefined);

const LOADERS = {
  outbox: { route: '/outbox', get: () => api('GET', '/outbox'), apply: (d) => (state.outbox = d.messages || []) },
  transactions: { route: '/transactions', get: () => api('GET', '/transactions'), apply: (d) => (state.transactions = d.transactions || []) },
  callbacks: { route: '/callbacks', get: () => api('GET', '/callbacks'), apply: (d) => (state.attempts = d.attempts || []) },
  journal: { route: '/journal', get: () => api('GET', '/journal' + journalQuery()), apply: (d) => (state.journal = d.entries || []) },
  // Only what is newer than what the page has (an event said there is more).
  journalNew: {
    route: '/journal',
    get: () => (lastSeq() === undefined ? api('GET', '/journal' + journalQuery()) : api('GET', '/journal' + journalQuery({ since: String(lastSeq()) }))),
    apply: (d) => {
      const known = new Set(state.journal.map((x) => x.seq));
      const merged = state.journal.concat((d.entries || []).filter((x) => !known.has(x.seq)));
      state.journal = merged.slice(-JOURNAL_LIMIT);
    },
    as: 'journal',
  },
  faults: { route: '/faults', get: () => api('GET', '/faults'), apply: (d) => (state.faults = d.faults || []) },
  clock: { route: '/clock', get: () => api('GET', '/clock'), apply: (d) => (state.clock = { now: d.now, offsetMs: d.offsetMs || 0, readAt: Date.now() }) },
};
const RENDER = { outbox: renderInbox, transactions: renderTransactions, callbacks: renderCallbacks, journal: renderJournal, faults: renderFaults, clock: renderClock };
const generation = {};

async function load(name) {
  const loader = LOADERS[name];
  const target = loader.as || name;
  const mine = (generation[target] = (generation[target] || 0) + 1);
  try {
    const data = await loader.get();
    if (mine !== generation[target]) return;
    loader.apply(data);
    missing.delete(target);
  } catch (error) {
    if (mine !== generation[target]) return;
    if (error.status === 404) missing.set(target, 'This emulator does not serve GET ' + BASE + loader.route + ': update @x/emulator to see it here.');
    else if (error.status !== 401 && error.status !== 403) setResult($('top-result'), error.message, true);
    else return;
  }
  RENDER[target]();
}

const queued = new Set();
let flushTimer = 0;
/** Loads these resources soon, once, however many events asked for them. */
function refresh(...names) {
  for (const name of names) queued.add(name);
  if (!flushTimer) flushTimer = setTimeout(flush, 60);
}
function flush() {
  flushTimer = 0;
  // A whole journal read makes the read of what is new superfluous.
  if (queued.has('journal')) queued.delete('journalNew');
  const names = [...queued];
  queued.clear();
  return Promise.all(names.map(load));
}
const refreshAll = () => refresh('outbox', 'transactions', 'callbacks', 'journal', 'faults', 'clock');

// ---- Live updates -----------------------------------------------------------------------------
let announceTimer = 0;
let announcements = [];
/** Tells screen readers about new items (aria-live="polite"), a few at a time. */
function announce(text) {
  announcements.push(text);
  clearTimeout(announceTimer);
  announceTimer = setTimeout(() => {
    const n = announcements.length;
    $('announcer').textContent = n > 3 ? n + ' updates; the last: ' + announcements[n - 1] : announcements.join('. ');
    announcements = [];
  }, 300);
}

function setLive(kind, text) {
  const el = $('live-state');
  el.setAttribute('data-state', kind);
  el.textContent = text;
}

function onEvent(name, data) {
  let item = {};
  try {
    item = data ? JSON.parse(data) : {};
  } catch {}
  switch (name) {
    case 'outbox':
      refresh('outbox');
      announce('New ' + channelName(item.channel) + ' to ' + phoneText(item.phoneNumber) + (item.text ? ': ' + truncate(item.text, 100) : ''));
      break;
    case 'transaction':
      refresh('transactions');
      if (item.status && item.final) announce('Transaction ' + truncate(item.referenceId || '', 12) + ': ' + item.status.code + ' ' + (item.status.description || ''));
      break;
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
      refresh('faults');
      break;
    case 'clock':
      refresh('clock');
      break;
    case 'reset':
      pasted.clear();
      checks.clear();
      refreshAll();
      announce('The emulator was reset.');
      break;
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
let polling = 0;

/**
 * Server-sent events read with fetch (so that the control token can go in a header), reconnecting
 * with a growing pause. An emulator without GET /_emulator/events is polled every second instead.
 */
async function listen() {
  let pause = 500;
  for (;;) {
    let response;
    try {
      response = await fetch(BASE + '/events', { headers: authHeaders({ accept: 'text/event-stream' }), cache: 'no-store' });
    } catch {
      response = undefined;
    }
    if (response && response.status === 404) return startPolling();
    if (response && (response.status === 401 || response.status === 403)) {
      setLive('offline', 'Not connected: the emulator refused this page');
      const body = await response.json().catch(() => ({}));
      if (body.code === 'token_required' || body.code === 'invalid_token') askForToken(body.error);
      await tokenGiven;
      continue;
    }
    if (response && response.ok && response.body) {
      setLive('live', 'Live');
      pause = 500;
      refreshAll();
      try {
        await readEvents(response.body);
      } catch {}
    }
    setLive('offline', 'Reconnecting…');
    await sleep(pause);
    pause = Math.min(pause * 2, 10000);
  }
}

async function readEvents(body) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer = (buffer + value).replace(/\r\n?/g, '\n');
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let name = 'message';
      const data = [];
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

function startPolling() {
  setLive('polling', 'Polling every second');
  if (!polling) polling = setInterval(() => refresh('outbox', 'transactions', 'callbacks', 'journalNew', 'faults', 'clock'), 1000);
  refreshAll();
}

let giveToken;
let tokenGiven = new Promise((resolve) => (giveToken = resolve));

// ---- Views ------------------------------------------------------------------------------------
function viewFromHash() {
  const first = location.hash.replace(/^#/, '').split('&')[0];
  return VIEWS.includes(first) ? first : 'inbox';
}

function showView(name, moveFocus) {
  for (const id of VIEWS) $(id).hidden = id !== name;
  for (const link of document.querySelectorAll('nav a[data-view]')) {
    if (link.getAttribute('data-view') === name) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  document.title = $(name + '-h').textContent + ' · Emulator inspector';
  if (moveFocus) $(name + '-h').focus();
}

/** The line under a list: why it is empty (nothing yet, nothing matches, not served); the count in the navigation. */
function setEmpty(view, count, text, shown) {
  const el = $(view + '-empty');
  const why = missing.get(view === 'inbox' ? 'outbox' : view);
  el.hidden = (shown === undefined ? count : shown) > 0 && !why;
  el.textContent = why || text;
  el.classList.toggle('error', Boolean(why));
  const badge = $('count-' + view);
  if (badge) badge.textContent = count ? String(count) : '';
}

// Inbox: one phone per number, newest activity first.
function renderInbox() {
  const filter = $('inbox-filter').value.trim().toLowerCase();
  const wanted = (n) => !filter || (digits(filter) ? digits(n).includes(digits(filter)) : String(n).toLowerCase().includes(filter));
  const phones = new Map();
  for (const m of state.outbox) {
    if (!wanted(m.phoneNumber)) continue;
    if (!phones.has(m.phoneNumber)) phones.set(m.phoneNumber, []);
    phones.get(m.phoneNumber).push(m);
  }
  const list = [...phones.entries()].map(([phone, messages]) => ({ phone, messages })).sort((a, b) => b.messages[b.messages.length - 1].at - a.messages[a.messages.length - 1].at);
  reconcile($('phones'), list, (p) => p.phone, renderPhone);
  setEmpty('inbox', state.outbox.length, state.outbox.length ? 'No message to a number matching “' + filter + '”.' : 'No message has reached a phone yet.', list.length);
}

function renderPhone({ phone, messages }) {
  const id = 'phone-' + digits(phone) + '-' + (phone.length % 97);
  return h('article', { class: 'phone', 'aria-labelledby': id },
    h('header', { class: 'phone-top' }, h('h3', { id }, phoneText(phone)), h('span', { class: 'muted' }, messages.length + (messages.length === 1 ? ' message' : ' messages'))),
    h('ol', { class: 'thread' }, messages.map(renderMessage)));
}

function renderMessage(m) {
  const call = m.channel === 'voice';
  return h('li', { class: 'bubble ' + (call ? 'call' : 'text') },
    h('p', { class: 'meta' }, h('span', { class: 'channel' }, call ? 'Call' : channelName(m.channel)), ' ', timeEl(m.at), m.senderId ? ' · from ' + m.senderId : '', ' · ' + m.product),
    h('p', { class: 'body' }, call ? [h('span', { class: 'visually-hidden' }, 'The call said: '), '“' + m.text + '”'] : m.text),
    m.code ? h('p', { class: 'code' }, 'Code ', h('strong', { class: 'mono' }, m.code)) : null,
    h('p', { class: 'ref muted' }, 'Reference ', h('span', { class: 'mono' }, m.referenceId)));
}

// Transactions, newest first.
function renderTransactions() {
  const filter = digits($('transactions-filter').value);
  const list = state.transactions.filter((t) => !filter || digits(t.phoneNumber).includes(filter)).slice().sort((a, b) => b.createdAt - a.createdAt);
  reconcile($('transaction-list'), list, (t) => t.referenceId, renderTransaction);
  setEmpty('transactions', state.transactions.length, state.transactions.length ? 'No transaction to a number matching “' + filter + '”.' : 'No transaction yet.', list.length);
}

function renderTransaction(t) {
  const ref = t.referenceId;
  const status = t.status || {};
  const result = h('p', { class: 'result', role: 'status', 'data-keep': 'result' });
  const input = h('input', { id: 'code-' + ref, name: 'code', list: 'status-codes', inputmode: 'numeric', autocomplete: 'off', required: true, 'data-keep': 'code', 'data-focus': 'code-' + ref, placeholder: t.kind === 'voice' || t.kind === 'call' ? '100' : '200' });
  const button = h('button', { type: 'submit', 'data-focus': 'set-' + ref }, 'Set final status');
  const form = h('form', { class: 'inline', on: { submit: (event) => {
    event.preventDefault();
    const code = Number(input.value.trim());
    if (!Number.isInteger(code)) return setResult(result, 'Enter a status code, e.g. 200 or 207.', true);
    act(button, result, () => api('POST', '/transactions/' + encodeURIComponent(ref) + '/status', { code }), (d) => 'Status set to ' + codeText(d.transaction && d.transaction.status ? d.transaction.status.code : code) + '.').then((d) => d && refresh('transactions', 'callbacks'));
  } } }, h('label', { for: 'code-' + ref }, 'Final status'), input, button);
  const start = t.createdAt;
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
        ['Verification', t.verify ? t.verify.state + (t.verify.attempts !== undefined ? ' (' + t.verify.attempts + (t.verify.attempts === 1 ? ' attempt)' : ' attempts)') : '') : undefined],
      ]),
      h('h4', {}, 'Status over time'),
      h('ol', { class: 'timeline' }, (t.history || []).map((step) => h('li', {}, h('span', { class: 'mono' }, '+' + duration(step.at - start)), ' ', codeText(step.code)))),
      t.final ? null : form,
      result));
}

// Callbacks: every attempt, newest first.
function attemptId(a, i) {
  return a.id !== undefined ? String(a.id) : a.referenceId + '-' + a.attempt + '-' + a.at + '-' + i;
}

function renderCallbacks() {
  const list = state.attempts.map((a, i) => ({ a, key: attemptId(a, i), check: checks.get(attemptId(a, i)) })).reverse();
  reconcile($('callback-list'), list, (x) => x.key, renderAttempt);
  setEmpty('callbacks', state.attempts.length, 'No callback sent yet.');
}

function renderAttempt({ a, key, check }) {
  const ok = a.ok !== undefined ? a.ok : a.status >= 200 && a.status < 300;
  const result = h('p', { class: 'result' + (check && check.failed ? ' error' : ''), role: 'status' }, check ? check.text : '');
  const canAct = a.id !== undefined;
  const resend = h('button', { type: 'button', 'data-focus': 'resend-' + key, disabled: !canAct, on: { click: () =>
    act(resend, result, () => api('POST', '/callbacks/' + encodeURIComponent(a.id) + '/resend'), 'Re-sent as a new attempt.').then((d) => d && refresh('callbacks')) } }, 'Re-send');
  const verify = h('button', { type: 'button', 'data-focus': 'check-' + key, disabled: !canAct, on: { click: () => checkBody(a, key, verify, result) } }, 'Check body');
  const curl = h('button', { type: 'button', 'data-focus': 'curl-' + key, disabled: !canAct, on: { click: () => copyCurl(a, curl, result) } }, 'Copy as curl');
  const headers = Object.entries(a.headers || {});
  const payload = a.payload !== undefined ? JSON.stringify(a.payload, null, 2) : a.body;
  return h('li', {},
    h('article', { class: 'attempt ' + (ok ? 'ok' : 'failed'), 'aria-labelledby': 'cb-' + key },
      h('header', {},
        h('h3', { id: 'cb-' + key }, h('span', { class: 'badge ' + (ok ? 'good' : 'bad') }, a.status !== undefined ? String(a.status) : 'no answer'), ' ', h('span', { class: 'url' }, 'POST ' + a.url))),
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
      h('details', { 'data-keep': 'headers' }, h('summary', {}, 'Signed headers (' + headers.length + ')'), dl(headers.map(([n, v]) => [n, h('span', { class: 'mono wrap' }, v)]), 'facts headers mono')),
      payload !== undefined ? h('details', { 'data-keep': 'payload' }, h('summary', {}, 'Payload'), h('pre', { class: 'mono' }, payload)) : null,
      h('div', { class: 'buttons' }, resend, verify, curl),
      result));
}

async function sha256Hex(text) {
  if (!globalThis.crypto || !crypto.subtle) return undefined;
  const hash = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(hash)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

async function checkBody(a, key, button, result) {
  const outcome = await act(button, result, async () => {
    const raw = await api('GET', '/callbacks/' + encodeURIComponent(a.id) + '/raw');
    const hex = await sha256Hex(raw.body);
    const shown = String((a.headers || {}).authorization || '').replace(/…$/, '');
    const signed = String((raw.headers || {}).authorization || '');
    const bytes = new TextEncoder().encode(raw.body).length;
    const problems = [];
    if (a.bodySha256 && hex && hex !== a.bodySha256) problems.push('the body does not hash to the recorded SHA-256');
    if (shown && !signed.startsWith(shown)) problems.push('the signature does not start as the one shown');
    if (problems.length) throw new Error('Check failed: ' + problems.join('; ') + '.');
    return 'Checked: the exact signed body (' + bytes + ' bytes) ' + (hex ? 'hashes to the recorded SHA-256' : 'was read (this page cannot hash it: not a secure context)') + ' and its signature starts as shown. Verify it with your key: verifyCallback with this body and these headers.';
  }, (text) => text);
  checks.set(key, outcome ? { text: outcome } : { text: result.textContent, failed: true });
}

const shellQuote = (s) => "'" + String(s).replace(/'/g, "'\\''") + "'";
async function copyCurl(a, button, result) {
  await act(button, result, async () => {
    const raw = await api('GET', '/callbacks/' + encodeURIComponent(a.id) + '/raw');
    const parts = ['curl', '-X', 'POST', shellQuote(a.url)];
    for (const [name, value] of Object.entries(raw.headers || {})) parts.push('-H', shellQuote(name + ': ' + value));
    parts.push('--data-binary', shellQuote(raw.body));
    if (!navigator.clipboard) throw new Error('This browser gives the page no clipboard here (not a secure context).');
    await navigator.clipboard.writeText(parts.join(' '));
  }, 'Copied: the curl command (with the full signature) is on the clipboard.');
}

// Journal, newest first; a signature failure gets a row with the strings to sign.
function renderJournal() {
  const list = state.journal.slice().reverse();
  const table = $('journal-table');
  reconcile(table, list.map((entry) => ({ entry, theirs: pasted.get(entry.seq) })), (x) => 'j' + x.entry.seq, renderEntry, table.tHead);
  const filtered = [...new FormData($('journal-form')).values()].some((v) => String(v).trim());
  setEmpty('journal', state.journal.length, filtered ? 'No request matches this filter.' : 'No request yet.');
}

function verdictClass(v) {
  if (v === 'ok') return 'good';
  if (v === 'control') return 'neutral';
  return 'bad';
}

function renderEntry({ entry: j, theirs }) {
  const cell = (label, ...content) => h('td', { 'data-label': label }, content);
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
  if (j.stringToSign) body.append(h('tr', { class: 'detail' }, h('td', { colspan: '8' }, renderStrings(j, theirs))));
  return body;
}

/** The lines of a string to sign, numbered, with invisible characters made visible. */
function visible(line) {
  return line.replace(/\t/g, '→').replace(/\r/g, '␍').replace(/ +$/, (s) => '·'.repeat(s.length)) || '(empty line)';
}

function renderLines(text, other, label) {
  const lines = text.split('\n');
  const others = other === undefined ? undefined : other.split('\n');
  return h('ol', { class: 'sts mono', 'aria-label': label }, lines.map((line, i) => {
    const differs = others !== undefined && others[i] !== line;
    return h('li', { class: differs ? 'differs' : '' }, differs ? h('mark', {}, visible(line), h('span', { class: 'visually-hidden' }, ' (differs)')) : visible(line));
  }));
}

function renderStrings(j, pastedTheirs) {
  const ours = j.stringToSign.ours;
  const theirs = j.stringToSign.theirs !== undefined ? j.stringToSign.theirs : pastedTheirs;
  const id = 'theirs-' + j.seq;
  const box = h('div', { class: 'strings' },
    h('div', {}, h('h4', {}, 'The emulator signed'), renderLines(ours, theirs, 'The emulator signed')),
    h('div', {}, h('h4', {}, 'Your client signed'), theirs !== undefined ? renderLines(theirs, ours, 'Your client signed') : h('p', { class: 'muted' }, 'Not on the wire: paste it below.')));
  const summary = h('p', { class: 'diff-summary', role: 'status' }, theirs === undefined ? '' : diffSummary(ours, theirs));
  const input = h('textarea', { id, rows: '4', class: 'mono', spellcheck: 'false', 'data-keep': 'theirs', 'data-focus': id });
  const compare = h('button', { type: 'submit', 'data-focus': 'compare-' + j.seq }, 'Compare');
  const form = j.stringToSign.theirs !== undefined ? null : h('form', { class: 'paste', on: { submit: (event) => {
    event.preventDefault();
    pasted.set(j.seq, input.value.replace(/\r\n/g, '\n'));
    renderJournal();
  } } }, h('label', { for: id }, 'Paste what your client signed (error.stringToSign, or the stringToSign field of its debug log)'), input, compare);
  return h('section', { class: 'signature', 'aria-label': 'Signature failure of request ' + j.seq }, h('h3', {}, 'Signature failure: the strings to sign'), box, summary, form);
}

function diffSummary(ours, theirs) {
  if (ours === theirs) return 'The strings are identical: the signature differs because the key does. Check the API key (and that it is the base64 text, decoded).';
  const a = ours.split('\n');
  const b = theirs.split('\n');
  const lines = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) if (a[i] !== b[i]) lines.push(i + 1);
  const first = lines[0] - 1;
  return 'Line' + (lines.length > 1 ? 's ' + lines.join(', ') + ' differ' : ' ' + lines[0] + ' differs') + ': the emulator signed ' + JSON.stringify(a[first] === undefined ? '(nothing)' : a[first]) + ', your client ' + JSON.stringify(b[first] === undefined ? '(nothing)' : b[first]) + '.';
}

// Faults.
function describeFault(f) {
  const retry = f.retryAfterSeconds !== undefined ? ' (Retry-After ' + f.retryAfterSeconds + ' s)' : '';
  const WHAT = {
    status: () => 'answer ' + f.status + retry,
    error: () => 'answer ' + f.status + ' with service code ' + f.code + (f.description ? ' “' + f.description + '”' : '') + retry,
    html: () => 'answer an HTML error page ' + (f.status || 502) + retry,
    latency: () => 'answer ' + f.ms + ' ms late',
    reset: () => 'reset the connection before reading the request',
    drop: () => 'process, then drop the connection',
  };
  const what = WHAT[f.type] ? WHAT[f.type]() : String(f.type);
  const where = (f.method ? f.method + ' ' : 'any method ') + (f.path ? 'on paths starting with ' + f.path : 'on any path');
  const times = f.times === undefined || f.times === 1 ? 'the next request' : f.times === null || f.times === Infinity ? 'every request' : 'the next ' + f.times + ' requests';
  const chance = f.probability !== undefined && f.probability !== 1 ? ' (probability ' + f.probability + ')' : '';
  return truncate(what + ' — ' + times + ', ' + where + chance, 300);
}

function renderFaults() {
  const list = state.faults.map((f, i) => ({ f, i }));
  reconcile($('fault-list'), list, (x) => x.i + ':' + JSON.stringify(x.f), ({ f, i }) => {
    const remove = h('button', { type: 'button', class: 'secondary', 'data-focus': 'remove-' + i, 'aria-label': 'Remove fault ' + (i + 1) + ': ' + describeFault(f), on: { click: () =>
      act(remove, $('faults-result'), () => api('DELETE', '/faults/' + i), 'Fault removed.').then((d) => d && refresh('faults')) } }, 'Remove');
    return h('li', { class: 'fault' }, h('p', {}, describeFault(f)), h('code', { class: 'mono wrap' }, JSON.stringify(f)), remove);
  });
  setEmpty('faults', state.faults.length, 'No fault is active: every request is answered normally.');
  $('faults-clear').disabled = !state.faults.length;
}

// The clock: the emulator's time, ticking here between reads.
function renderClock() {
  const c = state.clock;
  if (!c) return ($('clock-now').textContent = '–');
  const now = c.now + (Date.now() - c.readAt);
  const el = $('clock-now');
  el.setAttribute('datetime', iso(now));
  el.textContent = iso(now).replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
  $('clock-offset').textContent = c.offsetMs ? '(' + duration(c.offsetMs) + (c.offsetMs > 0 ? ' ahead' : ' behind') + ')' : '';
}

// ---- Actions ----------------------------------------------------------------------------------
function wire() {
  $('advance-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const ms = Math.round(Number($('advance-amount').value) * Number($('advance-unit').value));
    if (!(ms > 0)) return setResult($('top-result'), 'Enter an amount of time greater than zero.', true);
    act(event.submitter, $('top-result'), () => api('POST', '/clock/advance', { ms }), (d) => 'Clock advanced by ' + duration(ms) + (d && d.now ? ': now ' + iso(d.now) : '') + '.').then((d) => d && refreshAll());
  });
  $('reset').addEventListener('click', () => {
    act($('reset'), $('top-result'), () => api('POST', '/reset'), 'Reset: transactions, outbox, callbacks, faults and journal are empty.').then((d) => {
      if (!d) return;
      pasted.clear();
      checks.clear();
      refreshAll();
    });
  });
  $('token-form').addEventListener('submit', (event) => {
    event.preventDefault();
    token = $('token').value.trim();
    try {
      sessionStorage.setItem(TOKEN_KEY, token);
    } catch {}
    $('token-form').hidden = true;
    setResult($('top-result'), 'Token set.', false);
    giveToken();
    tokenGiven = new Promise((resolve) => (giveToken = resolve));
    refreshAll();
  });
  $('inbound-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const data = Object.fromEntries(new FormData(event.target));
    // Numbers as people write them (+1 555-555 0100): the emulator takes the digits.
    const number = (value) => value.trim().replace(/^\+/, '').replace(/[\s().-]/g, '');
    const message = { from: number(data.from), to: number(data.to), text: data.text };
    if (data.customerId.trim()) message.customerId = data.customerId.trim();
    act(event.submitter, $('inbound-result'), () => api('POST', '/inbound', message), (d) => 'Sent: reference ' + d.reference_id + ', callback to ' + d.callback_url + '.').then((d) => d && refresh('callbacks', 'journalNew'));
  });
  $('inbox-filter').addEventListener('input', renderInbox);
  $('transactions-filter').addEventListener('input', renderTransactions);
  $('journal-form').addEventListener('submit', (event) => {
    event.preventDefault();
    refresh('journal');
  });
  $('journal-form').addEventListener('reset', () => setTimeout(() => refresh('journal'), 0));
  $('faults-clear').addEventListener('click', () => act($('faults-clear'), $('faults-result'), () => api('DELETE', '/faults'), 'Every fault cleared.').then((d) => d && refresh('faults')));
  const type = $('fault-type');
  // Each field says which types it belongs to (data-for); the others are hidden and not sent.
  const showFields = () => {
    for (const el of document.querySelectorAll('#fault-form [data-for]')) el.hidden = !el.getAttribute('data-for').split(' ').includes(type.value);
  };
  type.addEventListener('change', showFields);
  showFields();
  $('fault-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    const rule = { type: type.value };
    for (const input of event.target.querySelectorAll('input[name]')) {
      const holder = input.closest('[data-for]');
      const value = input.value.trim();
      if (value === '' || (holder && holder.hidden)) continue;
      rule[input.name] = input.inputMode === 'numeric' || input.inputMode === 'decimal' ? Number(value) : value;
    }
    addFault(rule, event.submitter);
  });
  $('fault-json-form').addEventListener('submit', (event) => {
    event.preventDefault();
    let rule;
    try {
      rule = JSON.parse($('fault-json').value);
    } catch (error) {
      return setResult($('faults-result'), 'The rule is not JSON: ' + error.message, true);
    }
    addFault(rule, event.submitter);
  });
  window.addEventListener('hashchange', () => showView(viewFromHash(), true));
  setInterval(renderClock, 1000);
}

function addFault(rule, button) {
  act(button, $('faults-result'), () => api('POST', '/faults', rule), 'Fault added: ' + describeFault(rule) + '.').then((d) => {
    if (!d) return;
    if (d.faults) {
      state.faults = d.faults;
      renderFaults();
    }
    refresh('faults');
  });
}

// ---- Start ------------------------------------------------------------------------------------
const tokenInHash = /(?:^#|&)token=([^&]*)/.exec(location.hash);
let unreadableToken = false;
if (tokenInHash) {
  try {
    token = decodeURIComponent(tokenInHash[1]);
    try {
      sessionStorage.setItem(TOKEN_KEY, token);
    } catch {}
  } catch {
    // A malformed %-escape: no token is taken from the address, the page asks for it.
    unreadableToken = true;
  }
  // Out of the address bar and the history.
  history.replaceState(null, '', location.pathname + location.search + '#' + viewFromHash());
}
wire();
showView(viewFromHash(), false);
document.documentElement.setAttribute('data-ready', '');
if (unreadableToken) askForToken('The control token in the address could not be read (a malformed %-escape): type the control token the emulator printed when it started.');
listen();
`;

import { escapeHtml as e } from './escape.js';

export interface PageOptions {
  /** Offered when setting a transaction's final status (the emulator refuses codes not valid for its kind). */
  statusCodes: Readonly<Record<number, string>>;
  /** The HTTP statuses fault rules can answer: a status fault, an html fault, an error fault (a range). */
  faultStatuses: { status: readonly number[]; html: readonly number[]; error: { min: number; max: number } };
  /** Where app.js and app.css are served. */
  assets: string;
}

/** The views, in the order of the navigation: hash, title. */
export const VIEWS = [
  ['inbox', 'Inbox'],
  ['transactions', 'Transactions'],
  ['callbacks', 'Callbacks'],
  ['journal', 'Journal'],
  ['faults', 'Faults'],
] as const;

/** Offered in the journal's verdict filter (the emulator accepts any verdict). */
const VERDICTS = ['ok', 'signature_mismatch', 'clock_skew', 'nonce_reused', 'unknown_customer', 'missing_authorization', 'malformed_authorization', 'invalid_api_key', 'control', 'none', 'fault', 'fault:status', 'fault:error', 'fault:html', 'fault:latency', 'fault:reset', 'fault:drop'];

/** The fault types the form offers, with what each does. */
export const FAULT_KINDS = [
  ['status', 'status: answer an error status'],
  ['error', 'error: answer a service error code'],
  ['html', "html: a proxy's HTML error page"],
  ['latency', 'latency: answer late'],
  ['reset', 'reset: refuse before reading'],
  ['drop', 'drop: process, then cut'],
] as const;

/** A form field shown only for some fault types (space-separated). */
const only = (types: string, html: string) => html.replace('<div class="field">', `<div class="field" data-for="${types}">`);

/** A labelled control; a hint is tied to it with aria-describedby. */
const field = (id: string, label: string, input: string, hint?: string) =>
  `<div class="field"><label for="${id}">${e(label)}</label>${hint ? input.replace(`id="${id}"`, `id="${id}" aria-describedby="${id}-hint"`) : input}${
    hint ? `<p class="hint" id="${id}-hint">${e(hint)}</p>` : ''
  }</div>`;

/**
 * The page: landmarks, headings, labelled controls and empty containers. No data is rendered here:
 * app.js fills the lists from the control routes (as text, never as markup) and keeps them live.
 */
export function inspectorPage(options: PageOptions): string {
  const { statusCodes, faultStatuses, assets } = options;
  // The service's status table reaches the page as data (JSON in an attribute); app.js makes the options.
  const codes = JSON.stringify(Object.entries(statusCodes).map(([code, text]) => [Number(code), text]));
  const nav = VIEWS.map(([id, title]) => `<li><a href="#${id}" data-view="${id}">${e(title)} <span class="count" id="count-${id}"></span></a></li>`).join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>Emulator inspector</title>
<link rel="stylesheet" href="${e(assets)}/app.css">
<script type="module" src="${e(assets)}/app.js"></script>
</head>
<body>
<a class="skip" href="#main">Skip to the content</a>
<header class="top">
  <div class="brand">
    <h1>Emulator inspector</h1>
    <p class="live" id="live-state" data-state="connecting">Connecting…</p>
  </div>
  <div class="clock" aria-labelledby="clock-label" role="group">
    <p><span id="clock-label">Emulator clock</span> <time id="clock-now">–</time> <span id="clock-offset" class="muted"></span></p>
    <form id="advance-form" class="inline">
      <label for="advance-amount">Advance by</label>
      <input id="advance-amount" name="amount" type="number" min="0.001" step="any" value="1" required inputmode="decimal">
      <label for="advance-unit" class="visually-hidden">Unit</label>
      <select id="advance-unit" name="unit">
        <option value="1000">seconds</option>
        <option value="60000" selected>minutes</option>
        <option value="3600000">hours</option>
      </select>
      <button type="submit">Advance clock</button>
    </form>
  </div>
  <div class="actions">
    <button type="button" id="reset" class="danger">Reset emulator</button>
  </div>
  <p class="result" id="top-result" role="status"></p>
  <form id="token-form" class="inline" hidden>
    <label for="token">Control token</label>
    <input id="token" name="token" type="password" autocomplete="off" required aria-describedby="token-hint">
    <button type="submit">Use token</button>
    <p class="hint" id="token-hint">This emulator requires its control token (printed when it started). It stays in this tab only.</p>
  </form>
</header>
<nav aria-label="Views"><ul>${nav}</ul></nav>
<main id="main" tabindex="-1">
<noscript><p class="error">The inspector needs JavaScript: it reads the emulator through its control routes (/_emulator/*).</p></noscript>

<section id="inbox" class="view" aria-labelledby="inbox-h">
  <h2 id="inbox-h" tabindex="-1">Inbox</h2>
  <p class="lead">What reached each phone: SMS text, verification codes, and calls with what they said.</p>
  <div class="split">
  <div class="split-main">
  <div class="field filter"><label for="inbox-filter">Filter by phone number</label><input id="inbox-filter" type="search" autocomplete="off" inputmode="tel"></div>
  <div id="phones" class="phones"></div>
  <p class="empty" id="inbox-empty">No message has reached a phone yet.</p>
  </div>
  <form id="inbound-form" class="card split-side">
    <fieldset>
      <legend>Send an inbound SMS (a phone texts your number)</legend>
      <div class="fields">
        ${field('inbound-from', 'From (the phone)', '<input id="inbound-from" name="from" required autocomplete="off" inputmode="tel" placeholder="15555550100">')}
        ${field('inbound-to', 'To (your number)', '<input id="inbound-to" name="to" required autocomplete="off" inputmode="tel" placeholder="15555559999">')}
        ${field('inbound-customer', 'Customer id (optional)', '<input id="inbound-customer" name="customerId" autocomplete="off">')}
      </div>
      ${field('inbound-text', 'Text', '<textarea id="inbound-text" name="text" rows="2" required></textarea>')}
      <button type="submit">Send inbound SMS</button>
      <p class="result" id="inbound-result" role="status"></p>
    </fieldset>
  </form>
  </div>
</section>

<section id="transactions" class="view" aria-labelledby="transactions-h" hidden>
  <h2 id="transactions-h" tabindex="-1">Transactions</h2>
  <p class="lead">Every SMS, call and verification with its status over time. Set a final status to see how your code handles it.</p>
  <div class="field filter"><label for="transactions-filter">Filter by phone number</label><input id="transactions-filter" type="search" autocomplete="off" inputmode="tel"></div>
  <datalist id="status-codes" data-codes="${e(codes)}"></datalist>
  <ul id="transaction-list" class="cards"></ul>
  <p class="empty" id="transactions-empty">No transaction yet.</p>
</section>

<section id="callbacks" class="view" aria-labelledby="callbacks-h" hidden>
  <h2 id="callbacks-h" tabindex="-1">Callbacks</h2>
  <p class="lead">Every delivery attempt of a signed callback: URL, answer, latency. Signatures are shown shortened; “Check body” fetches the exact signed bytes and checks them against the recorded SHA-256, “Copy as curl” puts the full request on the clipboard.</p>
  <ul id="callback-list" class="cards"></ul>
  <p class="empty" id="callbacks-empty">No callback sent yet.</p>
</section>

<section id="journal" class="view" aria-labelledby="journal-h" hidden>
  <h2 id="journal-h" tabindex="-1">Journal</h2>
  <p class="lead">Every request the emulator answered, newest first, with how it was authenticated. A signature failure shows the string the emulator signed; paste your client's (<code>error.stringToSign</code>) to see the line that differs.</p>
  <form id="journal-form" class="card filters">
    <fieldset>
      <legend>Filter</legend>
      <div class="fields">
        ${field('journal-method', 'Method', '<select id="journal-method" name="method"><option value="">any</option><option>GET</option><option>POST</option><option>PUT</option><option>PATCH</option><option>DELETE</option></select>')}
        ${field('journal-path', 'Path starts with', '<input id="journal-path" name="path" autocomplete="off" placeholder="/v1/messaging">')}
        ${field('journal-status', 'HTTP status', '<input id="journal-status" name="status" autocomplete="off" placeholder="401 or 4xx">')}
        ${field('journal-verdict', 'Verdict', '<input id="journal-verdict" name="verdict" autocomplete="off" list="verdicts" placeholder="signature_mismatch">')}
        ${field('journal-phone', 'Phone number', '<input id="journal-phone" name="phone_number" inputmode="tel" autocomplete="off">')}
      </div>
      <datalist id="verdicts">${VERDICTS.map((v) => `<option value="${e(v)}"></option>`).join('')}</datalist>
      <button type="submit">Apply filter</button>
      <button type="reset" class="secondary">Clear filter</button>
    </fieldset>
  </form>
  <div class="table-wrap">
    <table id="journal-table">
      <caption class="visually-hidden">Requests, newest first</caption>
      <thead><tr><th scope="col">#</th><th scope="col">Time</th><th scope="col">Request</th><th scope="col">Auth</th><th scope="col">Verdict</th><th scope="col">Status</th><th scope="col">Reference</th><th scope="col">ms</th></tr></thead>
      <tbody id="journal-rows"></tbody>
    </table>
  </div>
  <p class="empty" id="journal-empty">No request yet.</p>
</section>

<section id="faults" class="view" aria-labelledby="faults-h" hidden>
  <h2 id="faults-h" tabindex="-1">Faults</h2>
  <p class="lead">Rules that make the next matching requests slow, fail or lose their answer, for resilience tests.</p>
  <h3>Active rules</h3>
  <ol id="fault-list" class="cards"></ol>
  <p class="empty" id="faults-empty">No fault is active: every request is answered normally.</p>
  <p><button type="button" id="faults-clear" class="danger">Clear all faults</button></p>
  <p class="result" id="faults-result" role="status"></p>
  <form id="fault-form" class="card">
    <fieldset>
      <legend>Add a fault</legend>
      <div class="fields">
        ${field('fault-type', 'Type', `<select id="fault-type" name="type">${FAULT_KINDS.map(([type, text]) => `<option value="${type}">${e(text)}</option>`).join('')}</select>`)}
        ${only('status error html', field('fault-status', 'HTTP status', `<input id="fault-status" name="status" inputmode="numeric" autocomplete="off" list="fault-statuses" value="503">`, `status: ${faultStatuses.status.join(', ')}; error: ${faultStatuses.error.min} to ${faultStatuses.error.max}; html: ${faultStatuses.html.join(', ')}.`))}
        ${only('error', field('fault-code', 'Service code', '<input id="fault-code" name="code" inputmode="numeric" autocomplete="off" placeholder="10008">'))}
        ${only('error', field('fault-description', 'Description (optional)', '<input id="fault-description" name="description" autocomplete="off">'))}
        ${only('status error html', field('fault-retry', 'Retry-After (seconds, optional)', '<input id="fault-retry" name="retryAfterSeconds" inputmode="numeric" autocomplete="off">'))}
        ${only('latency', field('fault-ms', 'Latency (ms)', '<input id="fault-ms" name="ms" inputmode="numeric" autocomplete="off" value="2000">'))}
        ${field('fault-times', 'Times', '<input id="fault-times" name="times" inputmode="numeric" autocomplete="off" value="1">', 'How many matching requests it applies to.')}
        ${field('fault-method', 'Only method (optional)', '<input id="fault-method" name="method" autocomplete="off" placeholder="POST">')}
        ${field('fault-path', 'Only paths starting with (optional)', '<input id="fault-path" name="path" autocomplete="off" placeholder="/v1/messaging">')}
        ${field('fault-probability', 'Probability (optional)', '<input id="fault-probability" name="probability" inputmode="decimal" autocomplete="off" placeholder="0.5">', 'Above 0, at most 1; default 1.')}
      </div>
      <datalist id="fault-statuses">${faultStatuses.status.map((s) => `<option value="${e(s)}"></option>`).join('')}</datalist>
      <button type="submit">Add fault</button>
    </fieldset>
  </form>
  <form id="fault-json-form" class="card">
    <fieldset>
      <legend>Add a fault written as JSON</legend>
      ${field('fault-json', 'Rule', '<textarea id="fault-json" name="rule" rows="3" spellcheck="false" class="mono">{"type":"status","status":503,"times":2}</textarea>', 'Any rule POST /_emulator/faults accepts.')}
      <button type="submit">Add fault</button>
    </fieldset>
  </form>
</section>
</main>
<div id="announcer" class="visually-hidden" aria-live="polite" aria-atomic="true"></div>
</body>
</html>
`;
}

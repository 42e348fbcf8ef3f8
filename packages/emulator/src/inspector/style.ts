/** The inspector's styles: system fonts, light and dark, visible focus, one column under 700px. */
export const INSPECTOR_STYLE = String.raw`:root {
  color-scheme: light dark;
  --bg: #f4f5f7; --panel: #fff; --text: #1b1f24; --muted: #57606a; --line: #d0d7de;
  --accent: #0b5cad; --good: #1a7f37; --bad: #b42318; --wait: #8a5a00; --mark: #fff1a8;
  --bubble: #e9ecef; --bubble-call: #e3efff; --focus: #0b5cad;
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif;
}
@media (prefers-color-scheme: dark) {
  :root { --bg: #0f1216; --panel: #181c21; --text: #e6e9ed; --muted: #9aa4ae; --line: #333b44;
    --accent: #6cb2ff; --good: #4ac26b; --bad: #ff7b72; --wait: #e3b341; --mark: #5c4a00;
    --bubble: #262c33; --bubble-call: #1d2a3b; --focus: #6cb2ff; }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--text); }
.mono, code, pre, .sts { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: 0.9em; }
.wrap, .url, .path { overflow-wrap: anywhere; word-break: break-word; }
.muted { color: var(--muted); }
.visually-hidden { position: absolute !important; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
.skip { position: absolute; left: 0.5rem; top: -3rem; background: var(--panel); padding: 0.5rem 0.75rem; z-index: 10; }
.skip:focus { top: 0.5rem; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
[hidden] { display: none !important; }
a { color: var(--accent); }
h1 { font-size: 1.25rem; margin: 0; }
h2 { font-size: 1.35rem; margin: 0 0 0.25rem; display: inline-block; }
h2 + .lead { margin-top: 0; }
h3 { font-size: 1rem; margin: 0; }
h4 { font-size: 0.9rem; margin: 0.75rem 0 0.25rem; color: var(--muted); }
button { font: inherit; padding: 0.35rem 0.8rem; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; }
button.secondary { background: transparent; color: var(--accent); }
button.danger { background: transparent; color: var(--bad); border-color: var(--bad); }
button:disabled { opacity: 0.55; cursor: not-allowed; }
input, select, textarea { font: inherit; color: inherit; background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 0.3rem 0.5rem; max-width: 100%; }
textarea { width: 100%; }
label { font-weight: 600; font-size: 0.9rem; }
fieldset { border: 0; padding: 0; margin: 0; }
legend { font-weight: 700; padding: 0; margin-bottom: 0.5rem; }

.top { display: flex; flex-wrap: wrap; gap: 0.5rem 1.5rem; align-items: center; padding: 0.75rem 1.25rem; background: var(--panel); border-bottom: 1px solid var(--line); }
.brand { display: flex; align-items: baseline; gap: 0.75rem; }
.live { margin: 0; font-size: 0.85rem; color: var(--muted); }
.live::before { content: ""; display: inline-block; width: 0.6rem; height: 0.6rem; border-radius: 50%; margin-right: 0.35rem; background: var(--wait); }
.live[data-state="live"]::before { background: var(--good); }
.live[data-state="offline"]::before { background: var(--bad); }
.clock p { margin: 0 0 0.25rem; }
.clock #clock-label { font-weight: 600; }
.inline { display: flex; flex-wrap: wrap; align-items: center; gap: 0.4rem; }
.inline input[type="number"] { width: 6rem; }
.actions { margin-left: auto; }
.top .result { flex-basis: 100%; margin: 0; }
.result { min-height: 1.2em; margin: 0.4rem 0 0; font-size: 0.9rem; }
.error { color: var(--bad); }
.hint { margin: 0.15rem 0 0; font-size: 0.8rem; color: var(--muted); }

nav { background: var(--panel); border-bottom: 1px solid var(--line); padding: 0 1.25rem; }
nav ul { list-style: none; display: flex; flex-wrap: wrap; gap: 0.25rem; margin: 0; padding: 0; }
nav a { display: inline-block; padding: 0.6rem 0.8rem; text-decoration: none; color: var(--text); border-bottom: 3px solid transparent; }
nav a[aria-current="page"] { border-bottom-color: var(--accent); font-weight: 700; color: var(--accent); }
.count:not(:empty) { display: inline-block; min-width: 1.4rem; padding: 0 0.35rem; border-radius: 999px; background: var(--bubble); font-size: 0.8rem; text-align: center; color: var(--text); font-weight: 600; }

main { padding: 1rem 1.25rem 3rem; max-width: 1400px; outline: none; }
.lead { margin: 0 0 1rem; color: var(--muted); max-width: 70ch; }
.card { background: var(--panel); border: 1px solid var(--line); border-radius: 10px; padding: 0.9rem 1rem; margin: 0 0 1rem; }
.fields { display: grid; grid-template-columns: repeat(auto-fill, minmax(12rem, 1fr)); gap: 0.5rem 1rem; margin-bottom: 0.5rem; }
.field { display: flex; flex-direction: column; gap: 0.2rem; margin-bottom: 0.5rem; }
.field.filter { max-width: 20rem; }
.filters button { margin-right: 0.4rem; }
.empty { color: var(--muted); font-style: italic; }
.empty.error { color: var(--bad); font-style: normal; }
.badge { display: inline-block; padding: 0.05rem 0.5rem; border-radius: 999px; font-size: 0.8rem; font-weight: 700; border: 1px solid currentColor; white-space: nowrap; }
.badge.good { color: var(--good); }
.badge.bad { color: var(--bad); }
.badge.wait { color: var(--wait); }
.badge.neutral { color: var(--muted); }

/* Inbox: phones, and the inbound form beside them (below them in a narrow window). */
.split { display: grid; grid-template-columns: minmax(0, 1fr) 20rem; gap: 1.25rem; align-items: start; }
.split-side .fields { grid-template-columns: 1fr; }
.phones { display: grid; grid-template-columns: repeat(auto-fill, minmax(280px, 1fr)); gap: 1.25rem; align-items: start; }
.phone { background: var(--panel); border: 2px solid var(--line); border-radius: 28px; padding: 0.6rem 0.8rem 1rem; max-height: 34rem; overflow-y: auto; }
.phone::before { content: ""; display: block; width: 4.5rem; height: 0.35rem; border-radius: 999px; background: var(--line); margin: 0.1rem auto 0.6rem; }
.phone-top { display: flex; justify-content: space-between; align-items: baseline; gap: 0.5rem; border-bottom: 1px solid var(--line); padding-bottom: 0.4rem; margin-bottom: 0.6rem; }
.thread { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 0.6rem; }
.bubble { background: var(--bubble); border-radius: 16px 16px 16px 4px; padding: 0.45rem 0.7rem; max-width: 92%; }
.bubble.call { background: var(--bubble-call); border-radius: 12px; max-width: 100%; }
.bubble p { margin: 0; }
.bubble .meta { font-size: 0.78rem; color: var(--muted); }
.bubble .channel { font-weight: 700; color: var(--text); }
.bubble .body { white-space: pre-wrap; overflow-wrap: anywhere; margin: 0.15rem 0; }
.bubble .code strong { font-size: 1.1rem; letter-spacing: 0.08em; background: var(--panel); padding: 0 0.35rem; border-radius: 4px; }
.bubble .ref { font-size: 0.72rem; overflow-wrap: anywhere; }

/* Lists of cards: transactions, callbacks, faults. */
.cards { list-style: none; margin: 0; padding: 0; display: grid; gap: 0.75rem; }
.cards > li > article, .fault { background: var(--panel); border: 1px solid var(--line); border-left: 4px solid var(--line); border-radius: 8px; padding: 0.7rem 0.9rem; }
.tx.pending { border-left-color: var(--wait); }
.tx.final { border-left-color: var(--accent); }
.attempt.ok { border-left-color: var(--good); }
.attempt.failed { border-left-color: var(--bad); }
.cards header { display: flex; flex-wrap: wrap; justify-content: space-between; gap: 0.4rem; align-items: center; }
.sha { margin: 0.25rem 0; }
.customer { display: block; font-size: 0.75rem; color: var(--muted); }
.kind { font-size: 0.8rem; letter-spacing: 0.05em; color: var(--muted); }
.facts { display: flex; flex-wrap: wrap; gap: 0.2rem 1.75rem; margin: 0.5rem 0; }
.facts > div { display: flex; gap: 0.4rem; min-width: 0; max-width: 100%; }
.facts.headers { flex-direction: column; }
.facts dt { color: var(--muted); white-space: nowrap; }
.facts dt::after { content: ":"; }
.facts dd { margin: 0; min-width: 0; overflow-wrap: anywhere; }
details { margin: 0.35rem 0; }
summary { cursor: pointer; color: var(--accent); }
pre { background: var(--bg); padding: 0.5rem; border-radius: 6px; overflow-x: auto; margin: 0.35rem 0; }
.timeline { list-style: none; margin: 0; padding: 0 0 0 0.6rem; border-left: 2px solid var(--line); display: grid; gap: 0.15rem; }
.timeline .mono { display: inline-block; min-width: 5.5rem; color: var(--muted); }
.buttons { display: flex; flex-wrap: wrap; gap: 0.4rem; margin-top: 0.4rem; }
.fault { display: grid; grid-template-columns: 1fr auto; gap: 0.2rem 0.8rem; align-items: center; }
.fault p { margin: 0; }
.fault code { grid-column: 1; color: var(--muted); }
.fault button { grid-row: 1 / span 2; grid-column: 2; }
#fault-list { margin-bottom: 0.5rem; }

/* Journal. */
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; background: var(--panel); border: 1px solid var(--line); }
th, td { text-align: left; padding: 0.35rem 0.5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: 0.85rem; color: var(--muted); background: var(--bg); }
tr.refused td { background: color-mix(in srgb, var(--bad) 8%, transparent); }
tr.detail td { background: color-mix(in srgb, var(--bad) 4%, transparent); }
.method { font-weight: 700; }
.signature h3 { margin-bottom: 0.4rem; }
.strings { display: grid; grid-template-columns: 1fr 1fr; gap: 1rem; }
.sts { margin: 0; padding: 0.4rem 0.4rem 0.4rem 2.4rem; background: var(--bg); border-radius: 6px; overflow-x: auto; }
.sts li { white-space: pre-wrap; overflow-wrap: anywhere; }
.sts mark { background: var(--mark); color: inherit; }
.diff-summary { font-weight: 600; }
.paste { margin-top: 0.5rem; display: flex; flex-direction: column; gap: 0.3rem; align-items: flex-start; }

/* A narrow window: one column, table rows as cards. */
@media (max-width: 700px) {
  .top { padding: 0.6rem 0.8rem; }
  .actions { margin-left: 0; }
  main, nav { padding-left: 0.8rem; padding-right: 0.8rem; }
  .split, .phones, .strings, .fields { grid-template-columns: 1fr; }
  .facts { flex-direction: column; }
  .fault { grid-template-columns: 1fr; }
  .fault button { grid-row: auto; grid-column: 1; justify-self: start; }
  table, thead, tbody, tr, th, td { display: block; }
  thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  tbody { border-bottom: 2px solid var(--line); }
  td { border: 0; padding: 0.15rem 0.6rem; }
  td[data-label]::before { content: attr(data-label) ": "; font-weight: 600; color: var(--muted); }
  tr.detail td::before { content: none; }
  td:empty { display: none; }
}
`;

// Number scripts: each script with the steps it has left (live: a step taken is a `numbers` event),
// removed one at a time; the default rules (the test numbers) below them.
import type { DefaultNumberRule, NumberScript, ScriptStep } from '../../state/scripts.js';
import { act, api } from './api.js';
import { codeText } from './data.js';
import { $, h, reconcile, setResult } from './dom.js';
import { duration, phoneText, truncate } from './format.js';
import { missing, refresh, state } from './store.js';

type Scripts = { numbers?: NumberScript[]; defaults?: DefaultNumberRule[] };

const who = (s: NumberScript) => (s.number !== undefined ? phoneText(s.number) : 'Numbers starting with ' + s.prefix);

function describeStep(step: ScriptStep): string {
  const after = 'delayMs' in step && step.delayMs !== undefined ? ' after ' + duration(step.delayMs) : '';
  if ('sms' in step) return 'SMS ' + (typeof step.sms === 'number' ? codeText(step.sms) : step.sms) + after;
  if ('call' in step) return 'call ' + (typeof step.call === 'number' ? codeText(step.call) : step.call.replace('_', ' ')) + after;
  return 'PhoneID ' + [step.phoneid.type, step.phoneid.risk !== undefined ? 'risk ' + step.phoneid.risk : undefined].filter(Boolean).join(', ');
}

/** The steps a script's line describes; its JSON below shows more. */
const SHOWN_STEPS = 5;

function describeScript(s: NumberScript): string {
  const n = s.steps.length;
  const shown = s.steps.slice(0, SHOWN_STEPS).map(describeStep).join('; ');
  return who(s) + ': ' + n + (n === 1 ? ' step' : ' steps') + ' left (' + shown + (n > SHOWN_STEPS ? '; …' : '') + ')';
}

/** Removes one script: the others are put back as they are now (PUT /_emulator/numbers). */
async function removeScript(target: NumberScript): Promise<Scripts> {
  const { numbers = [] } = await api<Scripts>('GET', '/numbers');
  const same = (s: NumberScript) => s.number === target.number && s.prefix === target.prefix;
  let index = numbers.findIndex((s) => same(s) && JSON.stringify(s.steps) === JSON.stringify(target.steps));
  if (index < 0) index = numbers.findIndex(same);
  if (index < 0) return { numbers };
  numbers.splice(index, 1);
  return api<Scripts>('PUT', '/numbers', { numbers });
}

function applied(d: Scripts | undefined): void {
  if (!d) return;
  if (d.numbers) {
    state.numbers = d.numbers;
    renderScripts();
  }
  refresh('numbers');
}

export function renderScripts(): void {
  const list = state.numbers.map((s, i) => ({ s, i }));
  reconcile($('script-list'), list, (x) => x.i + ':' + JSON.stringify(x.s), ({ s, i }) => {
    const remove: HTMLButtonElement = h('button', { type: 'button', class: 'secondary', 'data-focus': 'remove-script-' + i, 'aria-label': 'Remove the script of ' + who(s), on: { click: () =>
      void act(remove, $('scripts-result'), () => removeScript(s), 'Script removed.').then(applied) } }, 'Remove');
    return h('li', { class: 'fault' }, h('p', {}, describeScript(s)), h('code', { class: 'mono wrap' }, truncate(JSON.stringify(s.steps), 300)), remove);
  });
  const why = missing.get('numbers');
  const empty = $('scripts-empty');
  empty.hidden = state.numbers.length > 0 && !why;
  empty.textContent = why || 'No number script: the default rules apply.';
  empty.classList.toggle('error', Boolean(why));
  const cell = (label: string, text: string) => h('td', { 'data-label': label }, text);
  reconcile($('default-rows'), state.defaults, (d) => d.suffix, (d) =>
    h('tr', {}, cell('Suffix', d.suffix), cell('Meaning', d.meaning), cell('SMS', codeText(d.sms)), cell('Call', codeText(d.call)), cell('PhoneID', d.phoneid.type + (d.phoneid.risk !== undefined ? ', risk ' + d.phoneid.risk : ''))));
}

/** Adds a script written as JSON (POST /_emulator/numbers checks it). */
export function addScript(text: string, button: HTMLButtonElement | null): void {
  let script: unknown;
  try {
    script = JSON.parse(text);
  } catch (error) {
    return setResult($('scripts-result'), 'The script is not JSON: ' + (error as Error).message, true);
  }
  void act(button, $('scripts-result'), () => api<Scripts>('POST', '/numbers', script), 'Script added.').then(applied);
}

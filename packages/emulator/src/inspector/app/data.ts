// The service's tables the server put in the page (page.ts), and the controls made from them.
import type { InspectorData } from '../data.js';
import { $, h } from './dom.js';

const data = JSON.parse(document.body.dataset.inspector || '{}') as Partial<InspectorData>;
const CODES = new Map<number, string>(data.statusCodes ?? []);

export const codeText = (code: unknown): string => (CODES.has(Number(code)) ? code + ' ' + CODES.get(Number(code)) : String(code));

/** The status codes offered when setting a final status; the statuses a fault rule may answer. */
export function fillTables(): void {
  $('status-codes').append(...[...CODES].map(([code, text]) => h('option', { value: String(code) }, code + ' ' + text)));
  const faults = data.faultStatuses;
  if (!faults) return;
  $('fault-status-hint').textContent = `status: ${faults.status.join(', ')}; error: ${faults.error.min} to ${faults.error.max}; html: ${faults.html.join(', ')}.`;
  $('fault-statuses').append(...faults.status.map((s) => h('option', { value: String(s) })));
}

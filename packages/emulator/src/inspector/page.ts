import type { InspectorData } from './data.js';
import { escapeHtml as e } from './escape.js';
import { inspectorFiles } from './files.js';

export interface PageOptions {
  /** Offered when setting a transaction's final status (the emulator refuses codes not valid for its kind). */
  statusCodes: Readonly<Record<number, string>>;
  /** The HTTP statuses fault rules can answer: a status fault, an html fault, an error fault (a range). */
  faultStatuses: InspectorData['faultStatuses'];
  /** Where app.js and app.css are served. */
  assets: string;
}

/**
 * The page (page.html): landmarks, headings, labelled controls and empty containers. No data is
 * rendered as markup: the service's tables go in as JSON in one attribute (app/data.ts reads it),
 * and app.js fills the lists from the control routes (as text, never as markup) and keeps them live.
 */
export function inspectorPage(options: PageOptions): string {
  const { statusCodes, faultStatuses, assets } = options;
  const data: InspectorData = { statusCodes: Object.entries(statusCodes).map(([code, text]) => [Number(code), text] as const), faultStatuses };
  const values: Record<string, string> = { assets: e(assets), data: e(JSON.stringify(data)) };
  return inspectorFiles().page.replace(/\{\{(assets|data)\}\}/g, (_, name: string) => values[name]!);
}

/**
 * What the server tells the page about the service (page.ts writes it as JSON into the page's
 * `data-inspector` attribute, app/data.ts reads it): tables as data, never as markup.
 */
export interface InspectorData {
  /** Offered when setting a transaction's final status (the emulator refuses codes not valid for its kind). */
  statusCodes: ReadonlyArray<readonly [number, string]>;
  /** The HTTP statuses fault rules can answer: a status fault, an html fault, an error fault (a range). */
  faultStatuses: { status: readonly number[]; html: readonly number[]; error: { min: number; max: number } };
}

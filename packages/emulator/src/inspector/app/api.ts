// Talking to the emulator: its control routes, with the control token when it requires one.
import { CONTROL_PREFIX } from '../../paths.js';
import { $, setResult } from './dom.js';
import { truncate } from './format.js';

export const BASE = CONTROL_PREFIX;
const TOKEN_KEY = 'x-emulator-control-token';

let token = '';
try {
  token = sessionStorage.getItem(TOKEN_KEY) || '';
} catch {
  // No storage (a sandboxed frame, storage disabled): the token lives in this page only.
}

/** Keeps the token for this tab (sessionStorage) and sends it from now on. */
export function useToken(value: string): void {
  token = value;
  try {
    sessionStorage.setItem(TOKEN_KEY, token);
  } catch {
    // As above.
  }
}

let giveToken: () => void = () => {};
let given = new Promise<void>((resolve) => (giveToken = resolve));
/** Settles when the user types a token in (the event stream waits for it after a refusal). */
export const tokenGiven = (): Promise<void> => given;
/** The user typed a token in: whoever waits for one goes on. */
export function tokenTyped(): void {
  giveToken();
  given = new Promise<void>((resolve) => (giveToken = resolve));
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function authHeaders(extra: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = { ...extra };
  if (token) headers.authorization = 'Bearer ' + token;
  return headers;
}

/** A control route's answer, or its refusal (`error`, `code`, `field`). */
export interface Answer {
  error?: string;
  code?: string;
  field?: string;
  status?: { description?: string };
}

export async function api<T extends object = Answer>(method: string, path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(BASE + path, {
      method,
      headers: authHeaders(body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' }),
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
    });
  } catch (error) {
    throw new ApiError(0, 'unreachable', 'The emulator did not answer (' + (error as Error).message + '): is it still running?');
  }
  const text = await response.text();
  let data: Answer;
  try {
    data = text ? (JSON.parse(text) as Answer) : {};
  } catch {
    data = { error: truncate(text, 200) };
  }
  if (!response.ok) {
    const code = data.code || 'http_' + response.status;
    if (code === 'token_required' || code === 'invalid_token') askForToken(data.error);
    const message = data.error || (data.status && data.status.description) || 'HTTP ' + response.status;
    throw new ApiError(response.status, code, message + (data.field ? ' (field: ' + data.field + ')' : ''));
  }
  return data as T;
}

export function askForToken(message?: string): void {
  const form = $<HTMLFormElement>('token-form');
  if (!form.hidden) return;
  form.hidden = false;
  setResult($('top-result'), message || 'This emulator requires its control token.', true);
  $('token').focus();
}

/** Runs an action from a form or button: disables it meanwhile, shows the outcome. */
export async function act<T>(button: HTMLButtonElement | null | undefined, resultEl: Element | null, run: () => Promise<T>, done?: string | ((value: T) => string)): Promise<T | undefined> {
  if (button) button.disabled = true;
  try {
    const value = await run();
    setResult(resultEl, typeof done === 'function' ? done(value) : done || 'Done.', false);
    return value;
  } catch (error) {
    setResult(resultEl, (error as Error).message, true);
    return undefined;
  } finally {
    if (button) button.disabled = false;
  }
}

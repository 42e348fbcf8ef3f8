// One attempt on the wire, with its timeout: fetch (redirects not followed), then read the body
// under the cap. It answers what happened, as facts; `classify` turns them into results and errors.
import { cancel, MAX_RESPONSE_BYTES, readBody } from './body.js';
import { REDIRECT_MODE, redirectOf, type Redirect } from './redirect.js';
import type { FetchFunction, FetchInit, FetchResponse } from './fetch.js';
import { attemptSignal } from './signals.js';

export interface Outgoing {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: string | undefined;
  timeoutMs: number;
  maxResponseBytes: number;
  signal: AbortSignal | undefined;
}

export type Exchange =
  | { kind: 'answer'; response: FetchResponse; text: string }
  | { kind: 'redirect'; response: FetchResponse; redirect: Redirect }
  | { kind: 'too_large'; response: FetchResponse | undefined; status: number }
  | { kind: 'timeout' }
  | { kind: 'aborted'; reason: unknown }
  | { kind: 'failed'; error: unknown };

/** Settles like `promise`, or rejects with the signal's reason first (for fetches that ignore signals). */
function untilAborted(promise: Promise<FetchResponse>, signal: AbortSignal): Promise<FetchResponse> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      reject(signal.reason);
      promise.then((late) => cancel(late), () => {});
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (response) => {
        signal.removeEventListener('abort', onAbort);
        resolve(response);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** `createNodeFetch` rejects with a ResponseTooLargeError of its own bundle: recognised by code. */
function tooLargeStatus(error: unknown): number | undefined {
  const e = error as { code?: unknown; status?: unknown } | null;
  return e && e.code === 'response_too_large' && typeof e.status === 'number' ? e.status : undefined;
}

export async function fetchWithTimeout(fetcher: FetchFunction, out: Outgoing): Promise<Exchange> {
  const attempt = attemptSignal(out.timeoutMs, out.signal);
  const init: FetchInit & { [MAX_RESPONSE_BYTES]?: number } = {
    method: out.method,
    headers: out.headers,
    ...(out.body !== undefined ? { body: out.body } : {}),
    signal: attempt.signal,
    redirect: REDIRECT_MODE,
    [MAX_RESPONSE_BYTES]: out.maxResponseBytes,
  };
  let response: FetchResponse | undefined;
  try {
    response = await untilAborted(Promise.resolve().then(() => fetcher(out.url.href, init)), attempt.signal);
    const redirect = redirectOf(response, out.url);
    if (redirect) {
      cancel(response);
      return { kind: 'redirect', response, redirect };
    }
    const body = await readBody(response, out.maxResponseBytes, attempt.signal, out.method);
    if ('tooLarge' in body) {
      // Cancelling the body stops most fetches; aborting the request stops the rest.
      attempt.abort(new Error('maxResponseBytes exceeded'));
      return { kind: 'too_large', response, status: response.status };
    }
    return { kind: 'answer', response, text: body.text };
  } catch (error) {
    if (out.signal?.aborted) return { kind: 'aborted', reason: out.signal.reason };
    if (attempt.timedOut()) return { kind: 'timeout' };
    const status = tooLargeStatus(error);
    if (status !== undefined) return { kind: 'too_large', response, status };
    return { kind: 'failed', error };
  } finally {
    attempt.release();
  }
}

// The portable sender: one attempt through a WHATWG fetch, with its timeout (redirects not
// followed), then the body read under the cap. It answers what happened, as facts.
import { cancel, MAX_RESPONSE_BYTES, readBody } from './body.js';
import { REDIRECT_MODE, redirectOf } from './redirect.js';
import type { FetchFunction, FetchInit, FetchResponse } from './fetch.js';
import type { Answer, Exchange, Outgoing, Sender } from './sender.js';
import { attemptSignal } from './signals.js';

/** A Response's status and headers (any fetch's Headers has the WHATWG API users are typed against). */
const answerOf = (response: FetchResponse): Answer => ({ status: response.status, get: (name) => response.headers.get(name), headers: () => response.headers as Headers });

/** The sender over `fetcher`. */
export const fetchSender = (fetcher: FetchFunction): Sender => (out) => fetchWithTimeout(fetcher, out);

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

async function fetchWithTimeout(fetcher: FetchFunction, out: Outgoing): Promise<Exchange> {
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
      return { kind: 'redirect', answer: answerOf(response), redirect };
    }
    const body = await readBody(response, out.maxResponseBytes, attempt.signal, out.method);
    if ('tooLarge' in body) {
      // Cancelling the body stops most fetches; aborting the request stops the rest.
      attempt.abort(new Error('maxResponseBytes exceeded'));
      return { kind: 'too_large', answer: answerOf(response), status: response.status };
    }
    return { kind: 'answer', answer: answerOf(response), text: body.text };
  } catch (error) {
    if (out.signal?.aborted) return { kind: 'aborted', reason: out.signal.reason };
    if (attempt.timedOut()) return { kind: 'timeout' };
    const status = tooLargeStatus(error);
    if (status !== undefined) return { kind: 'too_large', answer: response && answerOf(response), status };
    return { kind: 'failed', error };
  } finally {
    attempt.release();
  }
}

// Redirects are never followed. The fetch is asked for `redirect: 'manual'`; an answer that is a
// redirect, or that shows the fetch followed one anyway, becomes a RedirectError.
import type { FetchResponse } from './fetch.js';

export const REDIRECT_MODE = 'manual' as const;

export interface Redirect {
  status: number;
  location: string | undefined;
  /** The fetch went to another URL itself. */
  followed: boolean;
}

/** A Location header resolved against the requested URL (as written when it does not parse). */
export function resolveLocation(location: string | null, base: URL): string | undefined {
  if (!location) return undefined;
  try {
    return new URL(location, base).href;
  } catch {
    return location;
  }
}

/** The redirect in `response` to the request for `requested`, or undefined when there is none. */
export function redirectOf(response: FetchResponse, requested: URL): Redirect | undefined {
  const { status } = response;
  // Browsers answer redirect: 'manual' with an opaque redirect: status 0, no headers.
  if (response.type === 'opaqueredirect' || status === 0) return { status, location: undefined, followed: false };
  if (status >= 300 && status < 400) return { status, location: resolveLocation(response.headers.get('location'), requested), followed: false };
  if (response.redirected) return { status, location: response.url || undefined, followed: true };
  if (response.url) {
    let answered: URL | undefined;
    try {
      answered = new URL(response.url);
    } catch {
      answered = undefined;
    }
    if (!answered || answered.origin !== requested.origin || answered.pathname !== requested.pathname) return { status, location: response.url, followed: true };
  }
  return undefined;
}

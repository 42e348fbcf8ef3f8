import { encodeBase64 } from '@x/auth/protocol';
import { isControlPath } from '../paths.js';

/** An absolute http(s) URL. */
export function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * Does a callback URL aim at an emulator's control routes (on any host: the emulator answers
 * under many names)? Its path as a router would read it: dot segments resolved, escapes decoded,
 * repeated slashes as one, any case. Such a callback could reset the emulator or add faults.
 */
export function targetsControl(value: string): boolean {
  let path: string;
  try {
    path = new URL(value).pathname;
  } catch {
    return false;
  }
  try {
    path = decodeURIComponent(path);
  } catch {
    // Not decodable: as written.
  }
  return isControlPath(path.replace(/\/{2,}/g, '/').toLowerCase());
}

/**
 * Masks the credentials of every URL in a text, a URL alone or a message that names URLs: the
 * password becomes `***` (`https://user:***@host/`), and a user name without a password (often a
 * token) becomes `***` too (`https://***@host/`). The one function for every URL the emulator shows:
 * control routes, events, the event stream, the inspector, saved states, errors and the CLI's output.
 * The userinfo ends at the last `@` before the path, as URL parsing reads it (`u:p@ss@host`).
 */
export function maskCredentials(text: string): string {
  return text.replace(/(\/\/)([^/?#\s\\]*)@/g, (_, slashes: string, userinfo: string) => {
    const colon = userinfo.indexOf(':');
    return colon < 0 ? `${slashes}***@` : `${slashes}${userinfo.slice(0, colon)}:***@`;
  });
}

const decoded = (part: string) => {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
};

/**
 * Where to send a callback: its URL without user name and password, and when it had them the HTTP
 * Basic `Authorization` value made of them (decoded, as a browser's fetch sends them): fetch
 * refuses a URL with credentials.
 */
export function splitCredentials(url: string): { url: string; authorization?: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { url };
  }
  if (parsed.username === '' && parsed.password === '') return { url };
  const pair = new TextEncoder().encode(`${decoded(parsed.username)}:${decoded(parsed.password)}`);
  parsed.username = '';
  parsed.password = '';
  return { url: parsed.href, authorization: `Basic ${encodeBase64(pair)}` };
}

/** A URL without user name and password (a restored saved state's: it never holds a real password). */
export function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.username === '' && parsed.password === '') return url;
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/[^/@]*@/, '//');
  }
}

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

/** A URL without user name and password (they never go to the log, nor to a saved state). */
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

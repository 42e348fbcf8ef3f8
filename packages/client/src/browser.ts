// The browser guard: an API key in a web page is readable by everyone who opens the page.
import { ConfigurationError } from './errors.js';

/** A web page (not Deno, Bun, Node or a worker): the check openai-node uses. */
export function isBrowser(): boolean {
  const g = globalThis as { window?: { document?: unknown }; navigator?: unknown };
  return typeof g.window !== 'undefined' && typeof g.window?.document !== 'undefined' && typeof g.navigator !== 'undefined';
}

/** Throws unless the caller opted in: `createClient({ dangerouslyAllowBrowser: true })`. */
export function refuseInBrowser(options: { dangerouslyAllowBrowser?: boolean }): void {
  if (options.dangerouslyAllowBrowser === true || !isBrowser()) return;
  throw new ConfigurationError(
    'createClient refuses to run in a browser: the API key would be in the page, where every visitor can read it and send messages, calls and verifications on your account. ' +
      'Call the service from your server (or an edge worker) and let the page call that. ' +
      'To run it here anyway (an internal tool, a throwaway test key), pass createClient({ dangerouslyAllowBrowser: true }). ' +
      'Signing and callback verification (@x/auth, @x/webhooks) need no opt-in.',
  );
}

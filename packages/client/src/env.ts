// createClient's options as given, completed from the environment, after the browser guard.
// Explicit options always win; customerId and apiKey come as a pair, from the options or (when
// they give neither) from X_CUSTOMER_ID and X_API_KEY. The runtime's environment is `Deno.env`
// (its permission asked first, so that it never prompts) or `process.env` (Node, Bun), guarded and
// never an import of node:*; a worker passes its bindings through `fromEnv`.
import { ConfigurationError } from './errors.js';
import type { CreateClientOptions, ResolvedOptions } from './routing.js';
import { LOG_LEVELS, type LogLevel } from './transport/log.js';
import { parseBaseUrl } from './transport/url.js';

/** The variables the client reads, by the option each one sets. Also in the README. */
export const ENV_VARIABLES = {
  customerId: 'X_CUSTOMER_ID',
  apiKey: 'X_API_KEY',
  baseUrl: 'X_BASE_URL',
  logLevel: 'X_LOG_LEVEL',
} as const;

type Option = keyof typeof ENV_VARIABLES;
const { customerId: ID, apiKey: KEY } = ENV_VARIABLES;

/** What the environment can configure. */
export interface EnvOptions {
  customerId?: string;
  apiKey?: string;
  baseUrl?: string;
  logLevel?: LogLevel;
}

/**
 * An environment: `process.env`, a worker's `env` bindings (an interface with other bindings too),
 * or any record of strings. Only the documented names are read; values that are not strings are
 * ignored.
 */
export type EnvRecord = object;

/** The options the wanted variables set: trimmed, an empty one unset, X_BASE_URL and X_LOG_LEVEL checked. */
function pick(read: (name: string) => unknown, wanted: (option: Option) => boolean): EnvOptions {
  const options: Record<string, string> = {};
  for (const option of Object.keys(ENV_VARIABLES) as Option[]) {
    const raw = wanted(option) ? read(ENV_VARIABLES[option]) : undefined;
    const value = typeof raw === 'string' ? raw.trim() : '';
    if (!value) continue;
    if (option === 'baseUrl') {
      try {
        parseBaseUrl(value);
      } catch (error) {
        throw new ConfigurationError(`${ENV_VARIABLES.baseUrl}: ${(error as Error).message}`, { cause: error });
      }
    }
    options[option] = option === 'logLevel' ? value.toLowerCase() : value;
    if (option === 'logLevel' && !(LOG_LEVELS as readonly string[]).includes(options[option])) {
      throw new ConfigurationError(`${ENV_VARIABLES.logLevel} must be one of ${LOG_LEVELS.join(', ')}; got ${JSON.stringify(value.slice(0, 20))}.`);
    }
  }
  return options as EnvOptions;
}

/**
 * The client options an environment record sets, for runtimes without a global environment
 * (workers get theirs as bindings): `createClient({ ...fromEnv(env), fetch })`. Reads
 * `X_CUSTOMER_ID`, `X_API_KEY`, `X_BASE_URL`, `X_LOG_LEVEL`; values are trimmed, empty ones are
 * unset. Throws a `ConfigurationError` naming the variable when `X_LOG_LEVEL` is not a level or
 * `X_BASE_URL` not a usable URL.
 *
 * @example
 * ```ts
 * import { createClient, fromEnv } from '@x/client';
 *
 * export default {
 *   async fetch(request: Request, env: Record<string, string>): Promise<Response> {
 *     const client = createClient({ ...fromEnv(env) }); // a worker's bindings, read like variables
 *     const { data } = await client.verify.status('0123456789ABCDEF0123456789ABCDEF');
 *     return Response.json(data);
 *   },
 * };
 * ```
 */
export function fromEnv(env: EnvRecord): EnvOptions {
  if (!env || typeof env !== 'object') throw new ConfigurationError('fromEnv takes an environment record, e.g. fromEnv(env) in a worker or fromEnv(process.env).');
  return pick((name) => (env as Record<string, unknown>)[name], () => true);
}

/** The wanted variables of the runtime, and why the credentials are not among them (in words that say what to do). */
function runtimeEnv(wanted: (option: Option) => boolean): { options: EnvOptions; whyNot: () => string } {
  const g = globalThis as {
    Deno?: { env?: { get?(name: string): string | undefined }; permissions?: { querySync?(d: { name: 'env'; variable: string }): { state: string } } };
    process?: { env?: Record<string, unknown> };
  };
  const deno = typeof g.Deno?.env?.get === 'function' ? g.Deno : undefined;
  let env: Record<string, unknown> | undefined;
  try {
    env = deno ? undefined : g.process?.env;
  } catch {
    env = undefined;
  }
  const denied: string[] = [];
  const options = pick((name) => {
    try {
      if (!deno) return env?.[name];
      const state = deno.permissions?.querySync?.({ name: 'env', variable: name }).state;
      if (state !== undefined && state !== 'granted') throw new Error(state);
      return deno.env!.get!(name);
    } catch {
      denied.push(name);
      return undefined;
    }
  }, wanted);
  const whyNot = () => {
    const refused = [ID, KEY].filter((name) => denied.includes(name));
    const missing = [ID, KEY].filter((name) => !refused.includes(name) && !options[name === ID ? 'customerId' : 'apiKey']);
    const parts: string[] = [];
    if (refused.length) parts.push(deno ? `Deno refused to read ${refused.join(', ')}: run with --allow-env=${Object.values(ENV_VARIABLES).join(',')}` : `the runtime refused to read ${refused.join(', ')}`);
    if (!deno && (!env || typeof env !== 'object')) parts.push('this runtime has no environment variables (in a worker, pass its bindings: createClient({ ...fromEnv(env) }))');
    else if (missing.length) parts.push(`${missing.join(' and ')} ${missing.length === 1 ? 'is' : 'are'} not set`);
    return parts.join('; ');
  };
  return { options, whyNot };
}

/** A web page (not Deno, Bun, Node or a worker): the check openai-node uses. */
const isBrowser = () => {
  const g = globalThis as { window?: { document?: unknown }; navigator?: unknown };
  return typeof g.window?.document !== 'undefined' && typeof g.navigator !== 'undefined';
};

export function configure(given: CreateClientOptions | undefined): ResolvedOptions {
  const options = given ?? {};
  if (typeof options !== 'object' || options === null) {
    throw new ConfigurationError(`createClient takes an options object: createClient({ customerId, apiKey }), or createClient() with ${ID} and ${KEY} set.`);
  }
  // An API key in a web page is readable by everyone who opens the page.
  if (options.dangerouslyAllowBrowser !== true && isBrowser()) {
    throw new ConfigurationError(
      'createClient refuses to run in a browser: the API key would be in the page, where every visitor can read it and send messages, calls and verifications on your account. ' +
        'Call the service from your server (or an edge worker) and let the page call that. ' +
        'To run it here anyway (an internal tool, a throwaway test key), pass createClient({ dangerouslyAllowBrowser: true }). ' +
        'Signing and callback verification (@x/auth, @x/webhooks) need no opt-in.',
    );
  }
  const hasId = options.customerId !== undefined;
  if (hasId !== (options.apiKey !== undefined)) {
    const [has, lacks, variable] = hasId ? ['customerId', 'apiKey', KEY] : ['apiKey', 'customerId', ID];
    throw new ConfigurationError(`createClient got ${has} but no ${lacks}: give both, or neither to read ${ID} and ${KEY} from the environment (with fromEnv(env): ${variable} is not set).`);
  }
  const env = runtimeEnv((option) => (option === 'customerId' || option === 'apiKey' ? !hasId : options[option] === undefined));
  const { customerId, apiKey } = hasId ? options : env.options;
  if (customerId === undefined || apiKey === undefined) {
    throw new ConfigurationError(`createClient needs credentials: pass { customerId, apiKey }, or set ${ID} and ${KEY} in the environment; ${env.whyNot()}.`);
  }
  // env.options holds only what the options leave unset.
  return { ...options, ...env.options, customerId, apiKey };
}

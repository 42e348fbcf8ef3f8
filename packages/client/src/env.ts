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

/**
 * The options the variables set (`read` gives a variable's value, or undefined for one not to
 * read): trimmed, an empty one unset, X_BASE_URL and X_LOG_LEVEL checked.
 */
function pick(read: (name: string, option: Option) => unknown): EnvOptions {
  const options: Record<string, string> = {};
  for (const [option, name] of Object.entries(ENV_VARIABLES) as [Option, string][]) {
    const raw = read(name, option);
    const value = typeof raw === 'string' ? raw.trim() : '';
    if (!value) continue;
    options[option] = option === 'logLevel' ? value.toLowerCase() : value;
    if (option === 'logLevel' && !(LOG_LEVELS as readonly string[]).includes(options[option])) {
      throw new ConfigurationError(`${name} must be one of ${LOG_LEVELS.join(', ')}; got ${JSON.stringify(value.slice(0, 20))}.`);
    }
    if (option === 'baseUrl') {
      try {
        parseBaseUrl(value);
      } catch (error) {
        throw new ConfigurationError(`${name}: ${(error as Error).message}`, { cause: error });
      }
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
  return pick((name) => (env as Record<string, unknown>)[name]);
}

type Runtime = {
  Deno?: { env?: { get?(name: string): string | undefined }; permissions?: { querySync?(d: { name: 'env'; variable: string }): { state: string } } };
  process?: { env?: Record<string, unknown> };
  window?: { document?: unknown };
  navigator?: unknown;
};

export function configure(given: CreateClientOptions | undefined): ResolvedOptions {
  const options = given ?? {};
  if (typeof options !== 'object' || options === null) {
    throw new ConfigurationError(`createClient takes an options object: createClient({ customerId, apiKey }), or createClient() with ${ID} and ${KEY} set.`);
  }
  const g = globalThis as Runtime;
  // An API key in a web page (not Deno, Bun, Node or a worker: openai-node's check) is readable by everyone who opens it.
  if (options.dangerouslyAllowBrowser !== true && typeof g.window?.document !== 'undefined' && typeof g.navigator !== 'undefined') {
    throw new ConfigurationError(
      'createClient refuses to run in a browser: every visitor could read the API key and send on your account. ' +
        'Call the service from your server and let the page call that; for an internal tool or a test key, pass dangerouslyAllowBrowser: true.',
    );
  }
  // jest-environment-jsdom takes the platform's TextEncoder away; signing needs it.
  if (typeof (globalThis as { TextEncoder?: unknown }).TextEncoder !== 'function') {
    throw new ConfigurationError(
      'createClient needs TextEncoder, which this environment lacks (jest-environment-jsdom removes it): ' +
        "in Jest, set testEnvironment: 'jest-fixed-jsdom' (npm i -D jest-fixed-jsdom), or run the test in the node environment.",
    );
  }
  const hasId = options.customerId !== undefined;
  if (hasId !== (options.apiKey !== undefined)) {
    const [has, lacks, variable] = hasId ? ['customerId', 'apiKey', KEY] : ['apiKey', 'customerId', ID];
    throw new ConfigurationError(`createClient got ${has} but no ${lacks}: give both, or neither to read ${ID} and ${KEY} from the environment (with fromEnv(env): ${variable} is not set).`);
  }
  // The runtime's variables that the options leave unset; Deno's are read only when granted (never a prompt).
  const deno = typeof g.Deno?.env?.get === 'function' ? g.Deno : undefined;
  let env: Record<string, unknown> | undefined;
  try {
    env = deno ? undefined : g.process?.env;
  } catch {
    env = undefined;
  }
  const refused: string[] = [];
  const found = pick((name, option) => {
    if (option === 'customerId' || option === 'apiKey' ? hasId : options[option] !== undefined) return undefined;
    try {
      if (!deno) return env?.[name];
      const state = deno.permissions?.querySync?.({ name: 'env', variable: name }).state;
      if (state !== undefined && state !== 'granted') throw new Error(state);
      return deno.env!.get!(name);
    } catch {
      refused.push(name);
      return undefined;
    }
  });
  const { customerId, apiKey } = hasId ? options : found;
  if (customerId === undefined || apiKey === undefined) {
    // Why, in words that say what to do.
    const denied = [ID, KEY].filter((name) => refused.includes(name));
    const missing = [ID, KEY].filter((name) => !denied.includes(name) && !found[name === ID ? 'customerId' : 'apiKey']);
    const why = [
      denied.length ? (deno ? `Deno refused to read ${denied.join(', ')}: run with --allow-env=${Object.values(ENV_VARIABLES).join(',')}` : `the runtime refused to read ${denied.join(', ')}`) : '',
      !deno && (!env || typeof env !== 'object')
        ? 'this runtime has no environment variables (in a worker, pass its bindings: createClient({ ...fromEnv(env) }))'
        : missing.length ? `${missing.join(' and ')} ${missing.length === 1 ? 'is' : 'are'} not set` : '',
    ];
    throw new ConfigurationError(`createClient needs credentials: pass { customerId, apiKey }, or set ${ID} and ${KEY} in the environment; ${why.filter(Boolean).join('; ')}.`);
  }
  return { ...options, ...found, customerId, apiKey };
}

// Configuration from the environment: one table of variable names, a reader for the runtime's
// environment (Node, Bun, Deno; guarded, never an import of node:*), and `fromEnv` for an
// environment record such as a worker's bindings.
import { ConfigurationError } from './errors.js';
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

/** A set value: a non-empty string after trimming (an empty variable counts as unset). */
function value(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const trimmed = raw.trim();
  return trimmed === '' ? undefined : trimmed;
}

function logLevel(raw: string | undefined): LogLevel | undefined {
  if (raw === undefined) return undefined;
  const level = raw.toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(level)) {
    throw new ConfigurationError(`${ENV_VARIABLES.logLevel} must be one of ${LOG_LEVELS.join(', ')}; got ${JSON.stringify(raw.slice(0, 20))}.`);
  }
  return level as LogLevel;
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
  const record = env as Readonly<Record<string, unknown>>;
  return pick((option) => value(record[ENV_VARIABLES[option]]), () => true);
}

function baseUrl(raw: string): string {
  try {
    parseBaseUrl(raw);
  } catch (error) {
    throw new ConfigurationError(`${ENV_VARIABLES.baseUrl}: ${(error as Error).message}`, { cause: error });
  }
  return raw;
}

function pick(read: (option: Option) => string | undefined, wanted: (option: Option) => boolean): EnvOptions {
  const options: EnvOptions = {};
  for (const option of Object.keys(ENV_VARIABLES) as Option[]) {
    if (!wanted(option)) continue;
    const raw = read(option);
    if (raw === undefined) continue;
    if (option === 'logLevel') options.logLevel = logLevel(raw);
    else if (option === 'baseUrl') options.baseUrl = baseUrl(raw);
    else options[option] = raw;
  }
  return options;
}

interface DenoLike {
  env?: { get?(name: string): string | undefined };
  permissions?: { querySync?(descriptor: { name: 'env'; variable: string }): { state: string } };
}

/** What the runtime's environment says, and which variables the runtime refused to show. */
export interface RuntimeEnv {
  options: EnvOptions;
  /** Where the variables came from; `none` in browsers and workers (their bindings go through fromEnv). */
  source: 'deno' | 'process' | 'none';
  /** Variables the runtime refused to read (Deno without --allow-env). */
  denied: string[];
}

/**
 * Reads the wanted variables from the runtime: `Deno.env` in Deno (asking the permission state
 * first, so that it never prompts; a refusal is recorded, not thrown), `process.env` in Node and
 * Bun. Elsewhere (browsers, workers) there is nothing to read.
 */
export function readRuntimeEnv(wanted: (option: Option) => boolean): RuntimeEnv {
  const denied: string[] = [];
  const g = globalThis as { Deno?: DenoLike; process?: { env?: Record<string, string | undefined> } };
  const deno = g.Deno;
  let read: (name: string) => string | undefined;
  let source: RuntimeEnv['source'];
  if (deno && typeof deno.env?.get === 'function') {
    source = 'deno';
    const env = deno.env;
    read = (name) => {
      try {
        const state = deno.permissions?.querySync?.({ name: 'env', variable: name }).state;
        if (state !== undefined && state !== 'granted') throw new Error(state);
        return env.get!(name);
      } catch {
        denied.push(name);
        return undefined;
      }
    };
  } else {
    let env: Record<string, string | undefined> | undefined;
    try {
      env = g.process?.env;
    } catch {
      env = undefined;
    }
    source = env && typeof env === 'object' ? 'process' : 'none';
    read = (name) => {
      try {
        return env?.[name];
      } catch {
        denied.push(name);
        return undefined;
      }
    };
  }
  const options = pick((option) => value(read(ENV_VARIABLES[option])), wanted);
  return { options, source, denied };
}

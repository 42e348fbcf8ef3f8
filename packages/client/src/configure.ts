// createClient's options as given, completed from the environment: explicit options always win;
// customerId and apiKey come as a pair, from the options or (when the options give neither) from
// X_CUSTOMER_ID and X_API_KEY. The browser guard runs first.
import { refuseInBrowser } from './browser.js';
import { ENV_VARIABLES as ENV, readRuntimeEnv, type RuntimeEnv } from './env.js';
import { ConfigurationError } from './errors.js';
import type { CreateClientOptions, ResolvedOptions } from './routing.js';

const ALL = Object.values(ENV).join(',');

/** Why the runtime's environment gave no credentials, in words that say what to do. */
function whyNotFromEnv(env: RuntimeEnv): string {
  const names = [ENV.customerId, ENV.apiKey];
  const denied = names.filter((name) => env.denied.includes(name));
  const missing = names.filter((name) => !denied.includes(name) && (name === ENV.customerId ? !env.options.customerId : !env.options.apiKey));
  const parts: string[] = [];
  if (denied.length && env.source === 'deno') parts.push(`Deno refused to read ${denied.join(', ')}: run with --allow-env=${ALL}`);
  else if (denied.length) parts.push(`the runtime refused to read ${denied.join(', ')}`);
  if (env.source === 'none') parts.push('this runtime has no environment variables (in a worker, pass its bindings: createClient({ ...fromEnv(env) }))');
  else if (missing.length) parts.push(`${missing.join(' and ')} ${missing.length === 1 ? 'is' : 'are'} not set`);
  return parts.join('; ');
}

export function configure(given: CreateClientOptions | undefined): ResolvedOptions {
  const options = given ?? {};
  if (typeof options !== 'object' || options === null) {
    throw new ConfigurationError(`createClient takes an options object: createClient({ customerId, apiKey }), or createClient() with ${ENV.customerId} and ${ENV.apiKey} set.`);
  }
  refuseInBrowser(options);
  const hasId = options.customerId !== undefined;
  const hasKey = options.apiKey !== undefined;
  if (hasId !== hasKey) {
    const [has, lacks] = hasId ? ['customerId', 'apiKey'] : ['apiKey', 'customerId'];
    const variable = hasId ? ENV.apiKey : ENV.customerId;
    throw new ConfigurationError(
      `createClient got ${has} but no ${lacks}: give both, or neither to read ${ENV.customerId} and ${ENV.apiKey} from the environment (with fromEnv(env): ${variable} is not set).`,
    );
  }
  const env = readRuntimeEnv((option) => (option === 'customerId' || option === 'apiKey' ? !hasId : options[option] === undefined));
  let credentials: { customerId: string; apiKey: string };
  if (hasId) credentials = { customerId: options.customerId!, apiKey: options.apiKey! };
  else if (env.options.customerId !== undefined && env.options.apiKey !== undefined) credentials = { customerId: env.options.customerId, apiKey: env.options.apiKey };
  else throw new ConfigurationError(`createClient needs credentials: pass { customerId, apiKey }, or set ${ENV.customerId} and ${ENV.apiKey} in the environment; ${whyNotFromEnv(env)}.`);
  return {
    ...options,
    ...credentials,
    ...(options.baseUrl === undefined && env.options.baseUrl !== undefined ? { baseUrl: env.options.baseUrl } : {}),
    ...(options.logLevel === undefined && env.options.logLevel !== undefined ? { logLevel: env.options.logLevel } : {}),
  };
}

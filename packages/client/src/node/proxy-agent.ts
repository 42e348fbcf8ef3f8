// The CONNECT agent, loaded the first time a proxy applies to an https request: a client without
// a proxy never loads it, and `npm i @x/client` does not install it (an optional peer dependency).
// Loaded by Node's own require from where this file is, in both builds: a CommonJS project under
// Jest (whose module system has no require(esm)) gets https-proxy-agent 7's CommonJS build.
import type { HttpsProxyAgent } from 'https-proxy-agent';
import { ConfigurationError } from '../errors.js';

type AgentModule = { HttpsProxyAgent: typeof HttpsProxyAgent };

let loaded: AgentModule | undefined;

/** https-proxy-agent, or a ConfigurationError that says how to install it (nothing is sent then). */
export function proxyAgentModule(proxyHost: string): AgentModule {
  if (loaded) return loaded;
  try {
    // The CommonJS build gets import.meta.url from the build's shim (from __filename).
    // node:module read when a proxy first applies (not at import: it loads Node's source map support).
    loaded = process.getBuiltinModule('node:module').createRequire(import.meta.url)('https-proxy-agent') as AgentModule;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code !== 'MODULE_NOT_FOUND' && code !== 'ERR_REQUIRE_ESM') throw error;
    throw new ConfigurationError(
      code === 'MODULE_NOT_FOUND'
        ? `The proxy ${proxyHost} applies to this https request, and tunnelling through it needs https-proxy-agent: npm i https-proxy-agent (or pass proxy: false, or list the host in NO_PROXY).`
        : `The proxy ${proxyHost} applies to this https request, and the installed https-proxy-agent is ESM only, which this runtime cannot require: npm i https-proxy-agent@7.`,
    );
  }
  return loaded;
}

// The headers of one attempt: a fresh TSA signature (or the Basic header), accept, user agent.
import { AuthError, basicAuthorization, createSigner, readClock, type Signer } from '@x/auth';
import { ConfigurationError } from '../errors.js';
import type { ClientOptions } from './options.js';

declare const __VERSION__: string;

export interface Signed {
  headers: Record<string, string>;
  /** What was signed (digest only), for AuthenticationError. */
  stringToSign: string | undefined;
  /** How the request authenticates, for AuthenticationError. */
  scheme: 'digest' | 'basic';
}

export interface Credentials {
  sign(request: { method: string; url: URL; contentType: string | undefined; body: string | undefined }): Signed;
}

function runtimeName(): string | undefined {
  const g = globalThis as {
    Deno?: { version?: { deno?: string } };
    Bun?: { version?: string };
    process?: { versions?: { node?: string } };
    document?: unknown;
    navigator?: { userAgent?: string };
  };
  if (g.Deno?.version?.deno) return `Deno/${g.Deno.version.deno}`;
  if (g.Bun?.version) return `Bun/${g.Bun.version}`;
  if (g.process?.versions?.node) return `Node/${g.process.versions.node}`;
  if (typeof g.document !== 'undefined') return undefined; // browsers: the browser names itself
  return g.navigator?.userAgent ?? 'unknown-runtime';
}

function userAgentOf(option: string | false | undefined): string | undefined {
  if (option === false) return undefined;
  if (option !== undefined) return option;
  const runtime = runtimeName();
  return runtime ? `x-sdk-client/${__VERSION__} ${runtime}` : undefined;
}

export function createCredentials(options: ClientOptions): Credentials {
  let signer: Signer | undefined;
  let basic: string | undefined;
  try {
    if (options.auth === 'basic') basic = basicAuthorization(options);
    else if (options.auth === undefined || options.auth === 'digest') signer = createSigner(options, { algorithm: options.algorithm, dateHeader: options.dateHeader, mac: options.mac });
    else throw new ConfigurationError(`auth must be 'digest' or 'basic', got ${JSON.stringify(options.auth)}.`);
  } catch (error) {
    if (error instanceof AuthError) throw new ConfigurationError(error.message, { cause: error });
    throw error;
  }
  const userAgent = userAgentOf(options.userAgent);
  const now = options.now;

  return {
    sign({ method, url, contentType, body }) {
      let headers: Record<string, string>;
      let stringToSign: string | undefined;
      if (signer) {
        ({ headers, stringToSign } = signer.sign({ method, url, contentType, body }, now ? { date: new Date(timeOf(now)) } : undefined));
      } else {
        headers = { authorization: basic! };
        if (contentType) headers['content-type'] = contentType;
      }
      headers.accept = 'application/json';
      if (userAgent) headers['user-agent'] = userAgent;
      return { headers, stringToSign, scheme: signer ? 'digest' : 'basic' };
    },
  };
}

/** The time of the client's clock; a clock that gives no time is the client's misconfiguration. */
export function timeOf(now: ClientOptions['now']): number {
  try {
    return readClock(now);
  } catch (error) {
    if (error instanceof AuthError) throw new ConfigurationError(error.message, { cause: error });
    throw error;
  }
}

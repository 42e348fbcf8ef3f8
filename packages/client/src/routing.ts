// Which host, credentials, auth scheme and retry class an operation goes with: one Transport per
// host and scheme, built on first use.
import { AuthError } from '@x/auth';
import { decodeCredentials } from '@x/auth/protocol';
import { ConfigurationError } from './errors.js';
import { PRODUCT_HOSTS, SERVICE_DOMAIN } from './facts.js';
import { DEFAULT_BASE_URL, Transport, type ClientOptions, type RawRequest, type RequestOptions, type SendOptions } from './transport/index.js';
import type { ApiResponse } from './types.js';
import { absoluteUrl } from './transport/url.js';

/** Host, credentials and auth scheme of one product; each falls back to the client's. */
export interface ProductOptions {
  /** Default: the product's own host, or the client's `baseUrl` when that is not a service host (emulator, proxy). */
  baseUrl?: string | URL | undefined;
  /** Give `customerId` and `apiKey` together, or neither (then the client's pair is used). */
  customerId?: string | undefined;
  apiKey?: string | undefined;
  auth?: 'digest' | 'basic' | undefined;
}

/** Products on their own host. Everything else goes to `baseUrl`. */
export interface ProductsOptions {
  /** Intelligence Cloud, default host `https://detect.telesign.com`; it usually has its own customer id and key. */
  intelligence?: ProductOptions | undefined;
  /** Verify API (multi-channel), default host `https://verify.telesign.com`. */
  verifyApi?: ProductOptions | undefined;
}

export interface CreateClientOptions extends Omit<ClientOptions, 'customerId' | 'apiKey'> {
  /** Give it with `apiKey`, or neither: then `X_CUSTOMER_ID` and `X_API_KEY` are read from the environment (Node, Bun, Deno). */
  customerId?: string | undefined;
  /** The API key, base64 as issued. Give it with `customerId`, or neither (then `X_API_KEY`). */
  apiKey?: string | undefined;
  /** Per-product hosts and credentials; not needed for one account on the default hosts. */
  products?: ProductsOptions | undefined;
  /**
   * In a browser, createClient refuses to run (the API key would be readable in the page) unless
   * this is true. Deno, Bun, Node and workers are not browsers.
   */
  dangerouslyAllowBrowser?: boolean | undefined;
  /**
   * The most SMS parts `messaging.send` may send one message in (see `analyzeMessage`): a longer
   * message is a `ValidationError` and is not sent. Default: no limit (the service takes up to
   * 1 600 characters).
   */
  maxParts?: number | undefined;
  /**
   * Where sends given an `idempotencyKey` are remembered, so that each key sends at most once:
   * `createIdempotency()` from `@x/client/idempotency`. Without it, a send with a key is refused
   * (`ConfigurationError`).
   */
  idempotency?: IdempotencyHook | undefined;
}

/** A send with an `idempotencyKey`, as the client hands it to its `idempotency` option. */
export interface IdempotentSend {
  /** The caller's key, as given. */
  key: string;
  /** The account the request goes out with (the key is scoped to it and to the operation). */
  customerId: string;
  /**
   * That account's API key: what the fingerprint of the parameters is keyed with (an HMAC), so
   * that a store never holds a digest of a verification code that could be tried offline. Never
   * store or log it.
   */
  apiKey: string;
  /** What is sent: the operation (method, path) and its parameters. */
  request: Pick<RawRequest, 'method' | 'path' | 'query' | 'form' | 'json'>;
}

/**
 * What the client's `idempotency` option is: `createIdempotency()` of `@x/client/idempotency`
 * (memory, or any delivery store such as `@x/redis`). `run` calls `send` at most once per key and
 * answers every call with that key with its result.
 */
export interface IdempotencyHook {
  /** Sends (`send()`) at most once per key and scope; answers with that send's result, or throws. */
  run<T>(call: IdempotentSend, send: () => Promise<ApiResponse<T>>): Promise<ApiResponse<T>>;
}

/** The options once completed from the environment: credentials present. */
export type ResolvedOptions = CreateClientOptions & Pick<ClientOptions, 'customerId' | 'apiKey'>;

export type Host = 'rest' | keyof ProductsOptions;

/**
 * - `never`: sent once, whatever happens (the caller's `retry` option is ignored).
 * - `unsent`: re-sent only on 429 or when it provably never left (refused connection, DNS failure).
 * - `idempotent`: also re-sent on 500/502/503/504, timeouts and dropped connections.
 */
export type RetryClass = 'never' | 'unsent' | 'idempotent';

/** One operation's request plus where and how it goes. */
export interface Routed extends Pick<RawRequest, 'method' | 'path' | 'query' | 'form' | 'json'> {
  host: Host;
  /** `basic` forces Basic for this route; otherwise the product's `auth` option decides. */
  auth?: 'basic';
  retry: RetryClass;
}

export type Send = <T>(request: Routed, options?: SendOptions) => Promise<ApiResponse<T>>;

const PRODUCTS: readonly (keyof ProductsOptions)[] = ['intelligence', 'verifyApi'];

function isServiceHost(baseUrl: string | URL | undefined): boolean {
  if (baseUrl === undefined) return true;
  try {
    const { hostname } = new URL(String(baseUrl));
    return hostname === SERVICE_DOMAIN || hostname.endsWith(`.${SERVICE_DOMAIN}`);
  } catch {
    return false; // the client's own Transport reports the bad URL
  }
}

/** Checks `products` up front (cheap), so a typo fails at createClient, not at the first call. */
function productOptions(options: ResolvedOptions): Record<keyof ProductsOptions, ClientOptions> {
  const given = options.products ?? {};
  if (typeof given !== 'object' || given === null) throw new ConfigurationError('products must be an object, e.g. { intelligence: { customerId, apiKey } }.');
  for (const key of Object.keys(given)) {
    if (!PRODUCTS.includes(key as keyof ProductsOptions)) throw new ConfigurationError(`products.${key} is not a product with its own host; use one of ${PRODUCTS.join(', ')}.`);
  }
  const { products: _products, dangerouslyAllowBrowser: _browser, ...shared } = options;
  const result = {} as Record<keyof ProductsOptions, ClientOptions>;
  for (const name of PRODUCTS) {
    const p: ProductOptions = given[name] ?? {};
    if (typeof p !== 'object' || p === null) throw new ConfigurationError(`products.${name} must be an object: { baseUrl?, customerId?, apiKey?, auth? }.`);
    if ((p.customerId === undefined) !== (p.apiKey === undefined)) {
      throw new ConfigurationError(`products.${name}: give customerId and apiKey together (or neither, to use the client's).`);
    }
    if (p.apiKey !== undefined) {
      try {
        decodeCredentials({ customerId: p.customerId!, apiKey: p.apiKey });
      } catch (error) {
        if (error instanceof AuthError) throw new ConfigurationError(`products.${name}: ${error.message}`, { cause: error });
        throw error;
      }
    }
    const baseUrl = p.baseUrl ?? (isServiceHost(options.baseUrl) ? PRODUCT_HOSTS[name] : options.baseUrl);
    absoluteUrl(String(baseUrl), `products.${name}.baseUrl`, PRODUCT_HOSTS[name]);
    result[name] = {
      ...shared,
      baseUrl,
      ...(p.apiKey !== undefined ? { customerId: p.customerId!, apiKey: p.apiKey } : {}),
      ...(p.auth !== undefined ? { auth: p.auth } : {}),
    };
  }
  return result;
}

/**
 * The per-call options an operation passes on: only these three. Whatever else a caller slips in
 * (`idempotent`, `method`, a body) cannot change what is sent or how often.
 */
export function perCall(o: RequestOptions | undefined): RequestOptions {
  if (!o) return {};
  return {
    ...(o.signal !== undefined ? { signal: o.signal } : {}),
    ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
    ...(o.retry !== undefined ? { retry: o.retry } : {}),
  };
}

/** Routes operations to lazily built Transports. `main` serves the REST host with the client's auth. */
export function createRouter(options: ResolvedOptions, main: Transport): Send {
  const perProduct = productOptions(options);
  const transports = new Map<string, Transport>([['rest:default', main]]);

  const transport = (host: Host, auth: 'basic' | undefined): Transport => {
    const key = `${host}:${auth ?? 'default'}`;
    let t = transports.get(key);
    if (!t) {
      const base: ClientOptions = host === 'rest' ? { ...options, baseUrl: options.baseUrl ?? DEFAULT_BASE_URL } : perProduct[host];
      // The client's sender: one connection pool for all its hosts.
      t = new Transport(auth ? { ...base, auth } : base, main.sender);
      transports.set(key, t);
    }
    return t;
  };

  return <T>({ host, auth, retry, ...request }: Routed, o?: SendOptions) => {
    const send = () => transport(host, auth).send<T>({ ...request, idempotent: retry === 'idempotent', ...perCall(o), ...(retry === 'never' ? { retry: false as const } : {}) });
    const key = o?.idempotencyKey;
    if (key === undefined) return send();
    // The logic lives in what the caller passes (@x/client/idempotency), not in every client's bundle.
    if (!options.idempotency) throw new ConfigurationError('idempotencyKey needs createClient({ idempotency: createIdempotency() }).');
    const { customerId, apiKey } = host === 'rest' ? options : perProduct[host];
    return options.idempotency.run({ key, customerId, apiKey, request }, send);
  };
}

// Compiled with exactOptionalPropertyTypes (test/consumer/tsconfig.json), against the built
// declarations: what a strict user project sees. `pnpm typecheck` runs it.
import { ApiError, RateLimitError, createClient, fromEnv, isClientError, type ClientOptions, type CreateClientOptions, type XClientError } from '@x/client';
import { createIdempotency } from '@x/client/idempotency';
import { createNodeFetch } from '@x/client/node';
import { fetch as undiciFetch } from 'undici';
import { expectTypeOf } from 'vitest';

declare const env: Record<string, string | undefined>;

// Options straight from the environment: string | undefined where a string is optional.
createClient({
  customerId: 'x',
  apiKey: 'AAAA',
  baseUrl: env.X_BASE_URL,
  userAgent: env.X_USER_AGENT,
  timeoutMs: env.X_TIMEOUT ? Number(env.X_TIMEOUT) : undefined,
  logLevel: undefined,
  logger: undefined,
  hooks: { onRequest: undefined, onRetry: env.TRACE ? (event) => console.log(event.error.code) : undefined },
  retry: undefined,
  maxResponseBytes: undefined,
  dateHeader: undefined,
  algorithm: undefined,
  auth: undefined,
  now: undefined,
  mac: undefined,
  fetch: undefined,
  products: { verifyApi: { baseUrl: env.X_VERIFY_URL, auth: undefined }, intelligence: undefined },
});
const strictOptions: ClientOptions = { customerId: 'x', apiKey: 'AAAA', baseUrl: env.X_BASE_URL, retry: { retries: undefined, minDelayMs: undefined } };
void strictOptions;
void createClient({ ...fromEnv(env), baseUrl: env.X_BASE_URL } satisfies CreateClientOptions);

// Per-request options and parameters.
const client = createClient({ customerId: 'x', apiKey: 'AAAA' });
void client.messaging.send({ phoneNumber: '1', message: 'x', messageType: 'ARN', senderId: env.SENDER, externalId: undefined, callbackUrl: env.CALLBACK }, { signal: undefined, timeoutMs: undefined, retry: undefined });
void client.verify.sms({ phoneNumber: '1', template: env.TEMPLATE, verifyCode: undefined, ucid: undefined });
void createClient({ customerId: 'x', apiKey: 'AAAA', idempotency: createIdempotency({ store: undefined, ttlMs: undefined, waitMs: undefined, onStoreError: undefined }) }).messaging.send({ phoneNumber: '1', message: 'x', messageType: 'ARN' }, { idempotencyKey: env.JOB_ID });
void client.phoneId.lookup('1', { addons: undefined, consent: undefined, encoding: undefined });
void client.request({ method: 'GET', path: '/v1/x', query: { a: env.A }, idempotent: undefined, json: undefined });

// Fetches from elsewhere fit without a cast: undici's, Node's global, createNodeFetch.
createClient({ customerId: 'x', apiKey: 'AAAA', fetch: undiciFetch });
createClient({ customerId: 'x', apiKey: 'AAAA', fetch: globalThis.fetch });
createClient({ customerId: 'x', apiKey: 'AAAA', fetch: createNodeFetch({ proxy: env.HTTPS_PROXY, maxResponseBytes: undefined }) });
// A hand-written fetch typed by what it is given.
createClient({ customerId: 'x', apiKey: 'AAAA', fetch: async (url, init) => undiciFetch(url, init) });

// The caught error narrows on its code.
try {
  await client.messaging.send({ phoneNumber: '1', message: 'x', messageType: 'ARN' });
} catch (e) {
  expectTypeOf(e).toBeUnknown();
  if (isClientError(e)) {
    expectTypeOf(e).toEqualTypeOf<XClientError>();
    if (e.code === 'rate_limited') expectTypeOf(e.retryAfterMs).toEqualTypeOf<number | undefined>();
    if (e.code === 'api_error') expectTypeOf(e).toExtend<ApiError>();
    if (e.code === 'rate_limited') expectTypeOf(e).toEqualTypeOf<RateLimitError>();
  }
}

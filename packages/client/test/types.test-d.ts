import type { Clock } from '@x/auth';
import { describe, expectTypeOf, it } from 'vitest';
import {
  ApiError,
  ClientError,
  DEFAULT_MAX_RESPONSE_BYTES,
  RateLimitError,
  RedirectError,
  ResponseTooLargeError,
  createClient,
  type AddonStatus,
  type ApiResponse,
  type BulkRecipient,
  type BulkSmsParams,
  type BulkSmsResponse,
  type ClientErrorCode,
  type ClientOptions,
  type CodeState,
  type CreateClientOptions,
  type CreateVerificationParams,
  type FinalizeVerificationResponse,
  type IntelligenceParams,
  type IntelligenceResponse,
  type PhoneIdAddons,
  type PhoneIdAddonSections,
  type PhoneIdConsent,
  type PhoneIdDeactivationResponse,
  type PhoneIdLiveResponse,
  type PhoneIdParams,
  type PhoneIdResponse,
  type PhoneIdStandardResponse,
  type PhoneIdUseCase,
  type ProductOptions,
  type ProductsOptions,
  type RequestOptions,
  type RiskLevel,
  type RiskSection,
  type ScoreParams,
  type ScoreResponse,
  type SmsResponse,
  type Verification,
  type VerificationMethod,
  type VerificationState,
  type VerificationStep,
  type VerifyCompletionResponse,
  type VerifyResponse,
  type VerifyStatusResponse,
  type VoiceVerifyParams,
  type VoiceVerifyResponse,
} from '../src/index.js';
import {
  AbortedError,
  AuthenticationError,
  ConfigurationError,
  NetworkError,
  TimeoutError,
  ValidationError,
  isClientError,
  type ApiErrorCode,
  type FetchFunction,
  type XClientError,
} from '../src/index.js';
import { XError, type VerifyFailure } from '@x/auth';
import { ENV_VARIABLES, fromEnv, LOG_LEVELS, type EnvOptions, type LogFields, type Logger, type LogLevel } from '../src/index.js';
import { createNodeFetch, type NodeFetchOptions, type ProxyOptions } from '../src/node/index.js';

const client = createClient({ customerId: 'x', apiKey: 'AAAA' });

describe('public types', () => {
  it('operations answer with typed data plus HTTP details', () => {
    expectTypeOf(client.messaging.send).returns.resolves.toEqualTypeOf<ApiResponse<SmsResponse>>();
    expectTypeOf(client.verify.check).returns.resolves.toEqualTypeOf<ApiResponse<VerifyStatusResponse>>();
    expectTypeOf<VerifyResponse['verify']['code_state']>().toEqualTypeOf<CodeState>();
    expectTypeOf(client.request<{ a: number }>).returns.resolves.toEqualTypeOf<ApiResponse<{ a: number }>>();
  });

  it('message types and parameters are checked', () => {
    // @ts-expect-error: not a message type
    void client.messaging.send({ phoneNumber: '1', message: 'x', messageType: 'SPAM' });
    // @ts-expect-error: message is required
    void client.voice.call({ phoneNumber: '1', messageType: 'OTP' });
    expectTypeOf(client.messaging.send).parameter(0).toHaveProperty('extra');
  });

  it('the response cap is an option of the client, of one request and of createNodeFetch', () => {
    expectTypeOf<ClientOptions['maxResponseBytes']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<RequestOptions['maxResponseBytes']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<NodeFetchOptions['maxResponseBytes']>().toEqualTypeOf<number | undefined>();
    expectTypeOf(DEFAULT_MAX_RESPONSE_BYTES).toEqualTypeOf<number>();
    createClient({ customerId: 'x', apiKey: 'AAAA', maxResponseBytes: 64 * 1024, fetch: createNodeFetch({ maxResponseBytes: 64 * 1024 }) });
    void client.messaging.status('A'.repeat(32), { maxResponseBytes: 4096 });
    // @ts-expect-error: a number of bytes
    createClient({ customerId: 'x', apiKey: 'AAAA', maxResponseBytes: '1MB' });
  });

  it('redirects and oversized answers have typed errors with stable codes', () => {
    expectTypeOf<RedirectError>().toExtend<ClientError>();
    expectTypeOf<ResponseTooLargeError>().toExtend<ClientError>();
    expectTypeOf<RedirectError['status']>().toEqualTypeOf<number>();
    expectTypeOf<RedirectError['location']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<RedirectError['followed']>().toEqualTypeOf<boolean>();
    expectTypeOf<ResponseTooLargeError['limitBytes']>().toEqualTypeOf<number>();
    expectTypeOf<'redirect'>().toExtend<ClientErrorCode>();
    expectTypeOf<'response_too_large'>().toExtend<ClientErrorCode>();
    expectTypeOf<ApiError['retryAfterMs']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<RateLimitError['retryAfterMs']>().toEqualTypeOf<number | undefined>();
  });
});

describe('next operations: request and response types', () => {
  it('Voice Verify and completion', () => {
    expectTypeOf(client.verify.call).parameter(0).toEqualTypeOf<VoiceVerifyParams>();
    expectTypeOf(client.verify.call).returns.resolves.toEqualTypeOf<ApiResponse<VoiceVerifyResponse>>();
    expectTypeOf<VoiceVerifyResponse['sub_resource']>().toEqualTypeOf<'call'>();
    expectTypeOf<VoiceVerifyParams['callForwardAction']>().toEqualTypeOf<'block' | 'flag' | undefined>();
    expectTypeOf(client.verify.complete).returns.resolves.toEqualTypeOf<ApiResponse<VerifyCompletionResponse>>();
    // @ts-expect-error: phoneNumber is required
    void client.verify.call({ ttsMessage: 'Code $$CODE$$' });
    // @ts-expect-error: a prompt needs its digit
    void client.verify.call({ phoneNumber: '1', prompt: { message: 'Press 1' } });
  });

  it('verify status narrows on sub_resource', async () => {
    const { data } = await client.verify.status('x');
    expectTypeOf(data).toEqualTypeOf<VerifyStatusResponse>();
    if (data.sub_resource === 'call') expectTypeOf(data).toEqualTypeOf<VoiceVerifyResponse>();
    else expectTypeOf(data).toEqualTypeOf<VerifyResponse>();
  });

  it('PhoneID variants and add-ons', () => {
    expectTypeOf(client.phoneId.standard).returns.resolves.toEqualTypeOf<ApiResponse<PhoneIdStandardResponse>>();
    expectTypeOf(client.phoneId.live).returns.resolves.toEqualTypeOf<ApiResponse<PhoneIdLiveResponse>>();
    expectTypeOf(client.phoneId.deactivation).returns.resolves.toEqualTypeOf<ApiResponse<PhoneIdDeactivationResponse>>();
    expectTypeOf(client.phoneId.live).parameter(1).toEqualTypeOf<PhoneIdUseCase>();
    expectTypeOf<PhoneIdLiveResponse['live']['roaming_country_iso2']>().toEqualTypeOf<string | null>();
    expectTypeOf<PhoneIdParams['addons']>().toEqualTypeOf<PhoneIdAddons | undefined>();
    expectTypeOf<PhoneIdParams['consent']>().toEqualTypeOf<PhoneIdConsent | undefined>();
    expectTypeOf<NonNullable<PhoneIdResponse['sim_swap']>['risk_indicator']>().toEqualTypeOf<1 | 2 | 3 | 4 | undefined>();
    expectTypeOf<NonNullable<PhoneIdResponse['contact_match']>['status']>().toEqualTypeOf<AddonStatus>();
    expectTypeOf<PhoneIdAddonSections['porting_status']>().toEqualTypeOf<PhoneIdResponse['porting_status']>();
    // @ts-expect-error: live needs a use case
    void client.phoneId.live('1');
    // @ts-expect-error: not a use case code
    void client.phoneId.live('1', { ucid: 'NOPE' });
    // @ts-expect-error: a misspelt add-on
    void client.phoneId.lookup('1', { addons: { sim_swp: {} } });
    // @ts-expect-error: contact takes no inputs
    void client.phoneId.lookup('1', { addons: { contact: { name: 'x' } } });
  });

  it('Score and Intelligence', () => {
    expectTypeOf(client.score.lookup).parameter(1).toEqualTypeOf<ScoreParams>();
    expectTypeOf(client.score.lookup).returns.resolves.toEqualTypeOf<ApiResponse<ScoreResponse>>();
    expectTypeOf<ScoreResponse['risk']>().toEqualTypeOf<RiskSection>();
    expectTypeOf(client.intelligence.phone).parameter(0).toEqualTypeOf<IntelligenceParams>();
    expectTypeOf(client.intelligence.phone).returns.resolves.toEqualTypeOf<ApiResponse<IntelligenceResponse>>();
    expectTypeOf<'low'>().toExtend<RiskLevel>();
    // @ts-expect-error: the lifecycle event is required
    void client.intelligence.phone({ phoneNumber: '1' });
  });

  it('Verify API', () => {
    expectTypeOf(client.verifyApi.create).parameter(0).toEqualTypeOf<CreateVerificationParams>();
    expectTypeOf(client.verifyApi.create).returns.resolves.toEqualTypeOf<ApiResponse<Verification>>();
    expectTypeOf(client.verifyApi.get).returns.resolves.toEqualTypeOf<ApiResponse<Verification>>();
    expectTypeOf(client.verifyApi.finalize).returns.resolves.toEqualTypeOf<ApiResponse<FinalizeVerificationResponse>>();
    expectTypeOf<Verification['state']>().toEqualTypeOf<VerificationState>();
    expectTypeOf<VerificationStep['method']>().toEqualTypeOf<VerificationMethod>();
    // @ts-expect-error: not a method
    void client.verifyApi.create({ phoneNumber: '1', policy: [{ method: 'fax' }] });
    // @ts-expect-error: the code is required
    void client.verifyApi.finalize('x');
  });

  it('Bulk SMS and per-product options', () => {
    expectTypeOf(client.messaging.bulk).parameter(0).toEqualTypeOf<BulkSmsParams>();
    expectTypeOf(client.messaging.bulk).returns.resolves.toEqualTypeOf<ApiResponse<BulkSmsResponse>>();
    expectTypeOf<BulkRecipient>().toEqualTypeOf<string | { phoneNumber: string; id?: string }>();
    expectTypeOf(createClient).parameter(0).toEqualTypeOf<CreateClientOptions | undefined>();
    expectTypeOf<NonNullable<CreateClientOptions['products']>>().toEqualTypeOf<ProductsOptions>();
    expectTypeOf<ProductsOptions['intelligence']>().toEqualTypeOf<ProductOptions | undefined>();
    // @ts-expect-error: not a product with its own host
    void createClient({ customerId: 'x', apiKey: 'AAAA', products: { score: {} } });
  });
});

// Environment, logging, proxies, browsers.
describe('environment, logging, proxies, browsers', () => {
  it('createClient takes no options at all, or credentials as options', () => {
    expectTypeOf(createClient()).toEqualTypeOf<ReturnType<typeof createClient>>();
    expectTypeOf<CreateClientOptions['customerId']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<CreateClientOptions['apiKey']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<CreateClientOptions['dangerouslyAllowBrowser']>().toEqualTypeOf<boolean | undefined>();
    // ClientOptions (one transport) still requires them.
    expectTypeOf<ClientOptions['customerId']>().toEqualTypeOf<string>();
  });

  it('fromEnv takes any environment record, a worker Env interface included', () => {
    interface WorkerEnv {
      X_CUSTOMER_ID: string;
      X_API_KEY: string;
      DB: { prepare(query: string): unknown };
    }
    const env = {} as WorkerEnv;
    expectTypeOf(fromEnv(env)).toEqualTypeOf<EnvOptions>();
    expectTypeOf(fromEnv({} as Record<string, string | undefined>)).toEqualTypeOf<EnvOptions>();
    void createClient({ ...fromEnv(env), timeoutMs: 5_000 });
    expectTypeOf<EnvOptions>().toEqualTypeOf<{ customerId?: string; apiKey?: string; baseUrl?: string; logLevel?: LogLevel }>();
    expectTypeOf(ENV_VARIABLES.apiKey).toEqualTypeOf<'X_API_KEY'>();
    // @ts-expect-error: not an environment record
    void fromEnv('X_API_KEY=abc');
  });

  it('logLevel is one of five levels; console and pino-shaped loggers fit', () => {
    expectTypeOf<LogLevel>().toEqualTypeOf<'off' | 'error' | 'warn' | 'info' | 'debug'>();
    expectTypeOf(LOG_LEVELS).toEqualTypeOf<readonly ['off', 'error', 'warn', 'info', 'debug']>();
    expectTypeOf<CreateClientOptions['logLevel']>().toEqualTypeOf<LogLevel | undefined>();
    expectTypeOf<CreateClientOptions['logger']>().toEqualTypeOf<Logger | undefined>();
    void createClient({ logger: console, logLevel: 'debug' });
    // pino's LogFn: overloads, object first or message first.
    interface LogFn {
      <T extends object>(obj: T, msg?: string, ...args: unknown[]): void;
      (msg: string, ...args: unknown[]): void;
    }
    const pinoLike = {} as { error: LogFn; warn: LogFn; info: LogFn; debug: LogFn; level: string };
    void createClient({ logger: pinoLike });
    expectTypeOf<LogFields['event']>().toEqualTypeOf<'request' | 'response' | 'retry' | 'failure'>();
    expectTypeOf<LogFields['serviceCode']>().toEqualTypeOf<number | undefined>();
    // @ts-expect-error: not a level
    void createClient({ logLevel: 'verbose' });
    // @ts-expect-error: a logger needs debug too
    void createClient({ logger: { error() {}, warn() {}, info() {} } });
  });

  it('createNodeFetch takes a proxy URL or false, and NO_PROXY entries', () => {
    expectTypeOf<NodeFetchOptions['proxy']>().toEqualTypeOf<string | URL | false | undefined>();
    expectTypeOf<NodeFetchOptions['noProxy']>().toEqualTypeOf<string | readonly string[] | undefined>();
    expectTypeOf<NodeFetchOptions>().toMatchTypeOf<ProxyOptions>();
    void createNodeFetch({ proxy: 'http://proxy.internal:3128', noProxy: ['localhost', '.internal'] });
    void createNodeFetch({ proxy: new URL('http://proxy.internal:3128'), noProxy: 'localhost,.internal' });
    void createNodeFetch({ proxy: false });
    // @ts-expect-error: true is not a proxy
    void createNodeFetch({ proxy: true });
  });
});

// "Types that narrow": a caught error narrows on `code`; instanceof keeps working.
describe('client errors form a discriminated union on code', () => {
  it('after isClientError, each code narrows to its class', async () => {
    try {
      await client.messaging.send({ phoneNumber: '1', message: 'x', messageType: 'ARN' });
    } catch (e) {
      expectTypeOf(e).toBeUnknown();
      if (isClientError(e)) {
        expectTypeOf(e).toEqualTypeOf<XClientError>();
        if (e.code === 'rate_limited') {
          expectTypeOf(e).toEqualTypeOf<RateLimitError>();
          expectTypeOf(e.retryAfterMs).toEqualTypeOf<number | undefined>();
        }
        if (e.code === 'authentication_error') {
          expectTypeOf(e).toEqualTypeOf<AuthenticationError>();
          expectTypeOf(e.reason).toEqualTypeOf<VerifyFailure | undefined>();
        }
        if (e.code === 'network_error') expectTypeOf(e.sent).toEqualTypeOf<false | 'unknown'>();
        // A send that timed out may have gone out, as one whose connection was lost.
        if (e.code === 'timeout') expectTypeOf(e.sent).toEqualTypeOf<false | 'unknown'>();
        if (e.code === 'network_error' || e.code === 'timeout') expectTypeOf(e.sent).toEqualTypeOf<false | 'unknown'>();
        if (e.code === 'validation_error') expectTypeOf(e.field).toEqualTypeOf<string>();
        if (e.code === 'redirect') expectTypeOf(e.location).toEqualTypeOf<string | undefined>();
        if (e.code === 'api_error' || e.code === 'invalid_response') {
          expectTypeOf(e).toExtend<ApiError>();
          expectTypeOf(e.status).toEqualTypeOf<number>();
        }
        // @ts-expect-error: a timeout has no retryAfterMs
        if (e.code === 'timeout') void e.retryAfterMs;
      }
    }
  });

  it('a switch over the code is exhaustive', () => {
    const describeError = (e: XClientError): string => {
      switch (e.code) {
        case 'configuration_error':
        case 'validation_error':
          return 'fix the call';
        case 'api_error':
        case 'invalid_response':
          return `HTTP ${e.status}`;
        case 'authentication_error':
          return e.reason ?? 'unknown';
        case 'rate_limited':
          return `wait ${e.retryAfterMs ?? 0}`;
        case 'timeout':
        case 'network_error':
        case 'aborted':
        case 'redirect':
        case 'response_too_large':
          return 'transport';
        case 'idempotency_unknown':
        case 'idempotency_in_progress':
        case 'idempotency_store':
        case 'idempotency_mismatch':
          return `${e.key}: ${e.referenceId ?? String(e.sent)}`;
        default:
          return e satisfies never;
      }
    };
    expectTypeOf(describeError).returns.toEqualTypeOf<string>();
    expectTypeOf<XClientError['code']>().toEqualTypeOf<ClientErrorCode>();
  });

  it('instanceof narrows too, and every class extends XError', () => {
    const e = {} as unknown;
    if (e instanceof RateLimitError) expectTypeOf(e.retryAfterMs).toEqualTypeOf<number | undefined>();
    if (e instanceof ApiError) expectTypeOf(e.code).toEqualTypeOf<ApiErrorCode>();
    expectTypeOf<RateLimitError>().toExtend<ApiError>();
    expectTypeOf<AuthenticationError>().toExtend<ApiError>();
    expectTypeOf<ConfigurationError | ValidationError | ApiError | TimeoutError | NetworkError | AbortedError | RedirectError | ResponseTooLargeError>().toExtend<XError>();
    expectTypeOf<ClientError>().toExtend<XError>();
    expectTypeOf<ClientError['code']>().toEqualTypeOf<ClientErrorCode>();
    if (e instanceof XError) expectTypeOf(e.code).toEqualTypeOf<string>();
    expectTypeOf<NetworkError['port']>().toEqualTypeOf<number | undefined>();
  });

  it('fetch is typed by what the client passes: the global fetch fits, and so does a plain function', () => {
    createClient({ customerId: 'x', apiKey: 'AAAA', fetch: globalThis.fetch });
    createClient({ customerId: 'x', apiKey: 'AAAA', fetch: (url, init) => fetch(url, init) });
    expectTypeOf<FetchFunction>().parameter(0).toEqualTypeOf<string>();
    expectTypeOf<Parameters<FetchFunction>[1]['redirect']>().toEqualTypeOf<'manual'>();
    // @ts-expect-error: not a fetch
    createClient({ customerId: 'x', apiKey: 'AAAA', fetch: (url: number) => url });
  });
});

describe('operation groups are named (every type in a signature can be imported)', () => {
  it('each group of the client is assignable to its exported interface', async () => {
    type Groups = import('../src/index.js').Client;
    type Named = typeof import('../src/index.js');
    expectTypeOf<Named>().not.toHaveProperty('BulkSmsOperations'); // types only, nothing at run time
    expectTypeOf<Groups['messaging']>().toMatchTypeOf<import('../src/index.js').BulkSmsOperations>();
    expectTypeOf<Groups['phoneId']>().toMatchTypeOf<import('../src/index.js').PhoneIdVariantOperations>();
    expectTypeOf<Groups['verify']>().toMatchTypeOf<import('../src/index.js').VoiceVerifyOperations & import('../src/index.js').VerifyCompletionOperations>();
    expectTypeOf<Groups['score']>().toEqualTypeOf<import('../src/index.js').ScoreOperations>();
    expectTypeOf<Groups['intelligence']>().toEqualTypeOf<import('../src/index.js').IntelligenceOperations>();
    expectTypeOf<Groups['verifyApi']>().toEqualTypeOf<import('../src/index.js').VerifyApiOperations>();
  });
});

// The client's clock is the SDK's Clock, a Date or epoch milliseconds.
describe('now takes () => Date | number', () => {
  it('as every now option of the SDK', () => {
    expectTypeOf<NonNullable<ClientOptions['now']>>().toEqualTypeOf<Clock>();
    createClient({ customerId: 'c', apiKey: 'k', now: () => new Date() });
    createClient({ customerId: 'c', apiKey: 'k', now: Date.now });
    // @ts-expect-error: a clock gives a Date or epoch milliseconds
    createClient({ customerId: 'c', apiKey: 'k', now: () => '2024-01-02' });
  });
});

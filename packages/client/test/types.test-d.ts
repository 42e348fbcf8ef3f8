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
import { createNodeFetch, type NodeFetchOptions } from '../src/node/index.js';

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

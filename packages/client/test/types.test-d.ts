import { describe, expectTypeOf, it } from 'vitest';
import {
  ApiError,
  ClientError,
  createClient,
  DEFAULT_MAX_RESPONSE_BYTES,
  RateLimitError,
  RedirectError,
  ResponseTooLargeError,
  type ApiResponse,
  type ClientErrorCode,
  type ClientOptions,
  type CodeState,
  type RequestOptions,
  type SmsResponse,
  type VerifyResponse,
} from '../src/index.js';
import { createNodeFetch, type NodeFetchOptions } from '../src/node/index.js';

const client = createClient({ customerId: 'x', apiKey: 'AAAA' });

describe('public types', () => {
  it('operations answer with typed data plus HTTP details', () => {
    expectTypeOf(client.messaging.send).returns.resolves.toEqualTypeOf<ApiResponse<SmsResponse>>();
    expectTypeOf(client.verify.check).returns.resolves.toEqualTypeOf<ApiResponse<VerifyResponse>>();
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

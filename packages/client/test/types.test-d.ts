import { describe, expectTypeOf, it } from 'vitest';
import { createClient, type ApiResponse, type CodeState, type SmsResponse, type VerifyResponse, type VerifyStatusResponse } from '../src/index.js';

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
});

import type { SpanContext } from '@opentelemetry/api';
import { describe, expectTypeOf, it } from 'vitest';
import { createClient, type ApiResponse, type Client, type EmailIntelligenceParams, type EmailIntelligenceResponse } from '../src/index.js';
import { instrument, type SendOperation, type TelemetryOptions } from '../src/otel-entry.js';

describe('instrument types', () => {
  it('takes createClient and its options, and gives a Client', () => {
    const client = instrument(createClient, { customerId: 'id', apiKey: 'a2V5' });
    expectTypeOf(client).toEqualTypeOf<Client>();
    expectTypeOf(instrument(createClient)).toEqualTypeOf<Client>();
    expectTypeOf<TelemetryOptions['onSend']>().toEqualTypeOf<((send: { referenceId: string; spanContext: SpanContext; operation: SendOperation }) => void) | undefined>();
  });

  it('SendOperation is every operation whose options take an idempotencyKey, and only those', () => {
    type Takes<T> = T extends object ? ('idempotencyKey' extends keyof T ? true : never) : never;
    type Sends = { [P in keyof Client & string]: { [O in keyof Client[P] & string]: Client[P][O] extends (...args: infer A) => unknown ? (true extends Takes<NonNullable<A[number]>> ? `${P}.${O}` : never) : never }[keyof Client[P] & string] }[keyof Client & string];
    expectTypeOf<SendOperation>().toEqualTypeOf<Sends>();
  });

  it('refuses what is not a client factory, and unknown client options', () => {
    // @ts-expect-error: a client, not the function that makes one
    instrument(createClient({ customerId: 'id', apiKey: 'a2V5' }));
    // @ts-expect-error: not an option of createClient
    instrument(createClient, { customerId: 'id', apiKey: 'a2V5', retries: 3 });
  });
});

describe('intelligence.email types', () => {
  it('requires the address and the lifecycle event; answers the typed shape', () => {
    const client = createClient({ customerId: 'id', apiKey: 'a2V5' });
    expectTypeOf(client.intelligence.email).parameter(0).toEqualTypeOf<EmailIntelligenceParams>();
    expectTypeOf(client.intelligence.email({ emailAddress: 'a@example.com', accountLifecycleEvent: 'create' })).toEqualTypeOf<Promise<ApiResponse<EmailIntelligenceResponse>>>();
    expectTypeOf<EmailIntelligenceResponse['intelligence_details']>().toEqualTypeOf<{ risk: import('../src/index.js').RiskSection; insights?: { category?: number[]; [identifier: string]: unknown } } | undefined>();
    // @ts-expect-error: emailAddress is required
    void client.intelligence.email({ accountLifecycleEvent: 'create' });
    // @ts-expect-error: not a lifecycle event
    void client.intelligence.email({ emailAddress: 'a@example.com', accountLifecycleEvent: 'login' });
  });
});

import { describe, expectTypeOf, it } from 'vitest';
import { createEmulator, EmulatorError, FaultRuleError, InboundError, type EmulatorEnv, type EmulatorErrorCode, type EmulatorOptions, type FaultRule, type InboundPayload, type InboundResult, type InboundSms, type Logger, type OutboxMessage } from '../src/index.js';
import { startEmulator, type RunningEmulator, type ServerOptions } from '../src/node.js';

describe('public types', () => {
  it('options take a logger; the in-process fetch is a fetch', () => {
    const logger: Logger = { error: () => undefined, warn: () => undefined };
    const emulator = createEmulator({ logger });
    expectTypeOf(emulator.fetch).parameters.toEqualTypeOf<[RequestInfo | URL, (RequestInit | undefined)?]>();
    expectTypeOf(emulator.fetch).returns.resolves.toEqualTypeOf<Response>();
    // @ts-expect-error: a logger has error and warn
    createEmulator({ logger: { error: () => undefined } });
  });

  it('fault rules are typed, and a refused rule is a FaultRuleError naming the field', () => {
    expectTypeOf<FaultRule>().toMatchTypeOf<{ type: 'latency' | 'status' | 'error' | 'html' | 'reset' | 'drop'; times?: number; method?: string; path?: string; probability?: number }>();
    // @ts-expect-error: not a status a fault can answer
    createEmulator().faults.add({ type: 'status', status: 418 });
    expectTypeOf<FaultRuleError>().toMatchTypeOf<EmulatorError>();
    expectTypeOf<FaultRuleError['field']>().toEqualTypeOf<string>();
    expectTypeOf<EmulatorError['code']>().toEqualTypeOf<EmulatorErrorCode>();
  });

  it('the server takes a control token and reports the one in effect', () => {
    expectTypeOf<ServerOptions['controlToken']>().toEqualTypeOf<string | undefined>();
    expectTypeOf(startEmulator).returns.resolves.toEqualTypeOf<RunningEmulator>();
    expectTypeOf<RunningEmulator['controlToken']>().toEqualTypeOf<string | undefined>();
  });

  it('adapters pass the raw request-target and the control settings as env bindings', () => {
    expectTypeOf<EmulatorEnv>().toMatchTypeOf<{ requestTarget?: string; inProcess?: boolean; hostnames?: readonly string[]; controlToken?: string; dropped?: boolean }>();
  });

  it('inbound SMS: typed message, result and payload; a refused one is an InboundError naming the field', () => {
    const emulator = createEmulator();
    expectTypeOf(emulator.inbound).parameter(0).toEqualTypeOf<InboundSms>();
    expectTypeOf(emulator.inbound).returns.toEqualTypeOf<InboundResult>();
    expectTypeOf<InboundResult['payload']>().toEqualTypeOf<InboundPayload>();
    expectTypeOf<InboundPayload['sub_resource']>().toEqualTypeOf<'mo_sms'>();
    expectTypeOf<InboundPayload['user_response']>().toEqualTypeOf<{ phone_number: string; sender_id: string; mo_message: string }>();
    // @ts-expect-error: from, to and text are required
    emulator.inbound({ from: '15555550100' });
    expectTypeOf<InboundError>().toMatchTypeOf<EmulatorError>();
    expectTypeOf<EmulatorErrorCode>().toEqualTypeOf<
      'invalid_fault' | 'invalid_option' | 'invalid_inbound' | 'invalid_advance' | 'invalid_status' | 'unknown_transaction' | 'unknown_callback' | 'wait_timeout' | 'address_in_use'
    >();
  });

  it('options: Verify API settings and accounts of products with their own credentials', () => {
    expectTypeOf<NonNullable<EmulatorOptions['verifyApi']>>().toEqualTypeOf<{ codeValidityMs?: number; maxAttempts?: number; maxDurationMs?: number }>();
    createEmulator({ products: { intelligence: { customers: [{ customerId: 'x', apiKey: 'eA==' }] } } });
    // @ts-expect-error: only intelligence and verifyApi have accounts of their own
    createEmulator({ products: { messaging: { customers: [] } } });
    expectTypeOf<OutboxMessage['product']>().toEqualTypeOf<'messaging' | 'verify' | 'voice' | 'bulk_sms' | 'verify_api'>();
    expectTypeOf<OutboxMessage['channel']>().toEqualTypeOf<'sms' | 'voice' | 'whatsapp' | 'viber' | 'rcs' | 'email'>();
  });
});

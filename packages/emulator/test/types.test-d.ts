import { describe, expectTypeOf, it } from 'vitest';
import {
  createEmulator,
  EmulatorError,
  FaultRuleError,
  InboundError,
  type CallbackAttempt,
  type CallbackView,
  type EmulatorEnv,
  type EmulatorErrorCode,
  type EmulatorEvent,
  type EmulatorOptions,
  type IdleOptions,
  type FaultRule,
  type InboundPayload,
  type InboundResult,
  type InboundSms,
  type JournalEntry,
  type Logger,
  type OutboxMessage,
  type TransactionView,
  ShapeError,
  type EmulatorSnapshot,
  type NumberScript,
  type DefaultNumberRule,
  type EmulatorConfig,
} from '../src/index.js';
import { startEmulator, type RunningEmulator, type ServerOptions } from '../src/node.js';

describe('public types', () => {
  it('options take a logger; the in-process fetch is a fetch', () => {
    const logger: Logger = { error: () => undefined, warn: () => undefined };
    const emulator = createEmulator({ logger });
    expectTypeOf(emulator.fetch).parameters.toEqualTypeOf<[string | URL | Request, (RequestInit | undefined)?]>();
    expectTypeOf(emulator.fetch).returns.resolves.toEqualTypeOf<Response>();
    // @ts-expect-error: a logger has error and warn
    createEmulator({ logger: { error: () => undefined } });
  });

  it('fault rules are typed, and a refused rule is a FaultRuleError naming the field', () => {
    expectTypeOf<FaultRule>().toMatchTypeOf<{ type: 'latency' | 'status' | 'error' | 'html' | 'reset' | 'drop' | 'rate' | 'callback'; times?: number; method?: string; path?: string; probability?: number }>();
    createEmulator().faults.add({ type: 'rate', perSecond: 10, path: '/v1/messaging', retryAfterSeconds: 2 });
    // @ts-expect-error: a rate fault needs its limit
    createEmulator().faults.add({ type: 'rate' });
    createEmulator().faults.add({ type: 'callback', chaos: 'duplicate', copies: 2, phoneNumber: '1555', product: 'messaging' });
    // @ts-expect-error: not a kind of callback chaos
    createEmulator().faults.add({ type: 'callback', chaos: 'swap' });
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
    // No second header or body path for the Node server: it builds a Request, as emulator.fetch takes.
    expectTypeOf<EmulatorEnv>().not.toHaveProperty('rawHeaders');
    expectTypeOf<EmulatorEnv>().not.toHaveProperty('readBody');
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
      'invalid_fault' | 'invalid_option' | 'invalid_inbound' | 'invalid_advance' | 'invalid_status' | 'unknown_transaction' | 'unknown_callback' | 'wait_timeout' | 'invalid_state' | 'invalid_script' | 'address_in_use' | 'unrouted_host' | 'not_emulated'
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

  it('journal, clock, transactions, callbacks, events and waitFor (the developer\'s tools)', () => {
    const emulator = createEmulator({ cors: true, journalSize: 50, random: Math.random });
    expectTypeOf(emulator.journal.list({ status: '4xx', verdict: 'signature_mismatch', phoneNumber: '+1 555 555 1234', since: 3, limit: 10 })).toEqualTypeOf<JournalEntry[]>();
    expectTypeOf<JournalEntry['scheme']>().toEqualTypeOf<'digest' | 'basic' | 'none'>();
    expectTypeOf<JournalEntry['stringToSign']>().toEqualTypeOf<{ ours: string; theirs?: string } | undefined>();
    // @ts-expect-error: a status class is 1xx to 5xx
    emulator.journal.list({ status: '6xx' });
    expectTypeOf(emulator.clock.advance).returns.resolves.toEqualTypeOf<number>();
    expectTypeOf(emulator.clock.now()).toEqualTypeOf<number>();
    expectTypeOf(emulator.transactions.setStatus('ref', 207)).toEqualTypeOf<TransactionView>();
    expectTypeOf(emulator.transactions.list({ kind: 'sms' })).toEqualTypeOf<TransactionView[]>();
    // @ts-expect-error: kinds are sms, verify and voice
    emulator.transactions.list({ kind: 'fax' });
    expectTypeOf(emulator.callbacks.resend(3)).resolves.toEqualTypeOf<CallbackAttempt>();
    expectTypeOf(emulator.callbacks.list()).toEqualTypeOf<CallbackView[]>();
    expectTypeOf(emulator.events.subscribe).returns.toEqualTypeOf<() => void>();
    emulator.events.subscribe((event: EmulatorEvent) => {
      if (event.type === 'outbox') expectTypeOf(event.data).toEqualTypeOf<OutboxMessage>();
      if (event.type === 'journal') expectTypeOf(event.data).toEqualTypeOf<JournalEntry>();
    });
    expectTypeOf(emulator.waitFor({ outbox: { phoneNumber: '+1 555 555 1234' } })).resolves.toEqualTypeOf<OutboxMessage>();
    expectTypeOf(emulator.waitFor({ transaction: { referenceId: 'x', final: true } }, { timeoutMs: 1000 })).resolves.toEqualTypeOf<TransactionView>();
    expectTypeOf(emulator.waitFor({ callback: { ok: true } })).resolves.toEqualTypeOf<CallbackAttempt>();
    expectTypeOf(emulator.waitFor({ journal: { path: '/v1/verify' } })).resolves.toEqualTypeOf<JournalEntry>();
    // idle: an optional real-time limit.
    expectTypeOf(emulator.idle()).resolves.toEqualTypeOf<void>();
    expectTypeOf(emulator.idle({ timeoutMs: 2_000 })).resolves.toEqualTypeOf<void>();
    expectTypeOf<IdleOptions>().toEqualTypeOf<{ timeoutMs?: number }>();
    // @ts-expect-error: timeoutMs is a number of milliseconds
    void emulator.idle({ timeoutMs: '2s' });
    expectTypeOf(emulator.waitFor(() => emulator.outbox.latest('15555550100'))).resolves.toEqualTypeOf<OutboxMessage>();
    expectTypeOf<EmulatorOptions['cors']>().toEqualTypeOf<boolean | undefined>();
  });

  it('the new fault rules are typed', () => {
    const faults = createEmulator().faults;
    faults.add({ type: 'reset' });
    faults.add({ type: 'html', status: 503, probability: 0.5 });
    faults.add({ type: 'error', status: 402, code: 10033, description: 'Insufficient balance' });
    // @ts-expect-error: an error fault needs its code
    faults.add({ type: 'error', status: 500 });
    // @ts-expect-error: not a status an html fault answers
    faults.add({ type: 'html', status: 418 });
    expectTypeOf<EmulatorEnv['reset']>().toEqualTypeOf<boolean | undefined>();
  });

  it('number scripts, saved state and the state file are typed', () => {
    const emulator = createEmulator({ numbers: [{ number: '15555550100', steps: [{ sms: 'undeliverable' }, { call: 'busy', delayMs: 10 }, { phoneid: { type: 'VOIP', risk: 700 } }] }] });
    emulator.numbers.add({ prefix: '1555', steps: [{ sms: 207 }] });
    // @ts-expect-error: a script names a number or a prefix, not both
    emulator.numbers.add({ number: '1', prefix: '1', steps: [] });
    // @ts-expect-error: not a call outcome
    emulator.numbers.add({ number: '1', steps: [{ call: 'ringing' }] });
    expectTypeOf(emulator.numbers.list()).toEqualTypeOf<NumberScript[]>();
    expectTypeOf(emulator.numbers.defaults).toEqualTypeOf<readonly DefaultNumberRule[]>();
    expectTypeOf(emulator.snapshot()).toEqualTypeOf<EmulatorSnapshot>();
    expectTypeOf<EmulatorSnapshot['format']>().toEqualTypeOf<'x-emulator-state'>();
    expectTypeOf(emulator.restore).parameter(0).toEqualTypeOf<unknown>();
    expectTypeOf<ShapeError>().toMatchTypeOf<EmulatorError>();
    expectTypeOf<ShapeError['field']>().toEqualTypeOf<string>();
    expectTypeOf<EmulatorConfig['faults']>().toEqualTypeOf<FaultRule[] | undefined>();
    expectTypeOf<ServerOptions['state']>().toEqualTypeOf<string | undefined>();
  });
});

describe('an outbox SMS carries what it costs', () => {
  it('encoding, units, parts, units per part and the characters that forced UCS-2 (absent for calls)', () => {
    expectTypeOf<OutboxMessage['encoding']>().toEqualTypeOf<'GSM-7' | 'UCS-2' | undefined>();
    expectTypeOf<OutboxMessage['parts']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<NonNullable<OutboxMessage['nonGsm']>[number]>().toEqualTypeOf<{ readonly character: string; readonly index: number }>();
  });
});

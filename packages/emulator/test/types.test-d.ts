import { describe, expectTypeOf, it } from 'vitest';
import { createEmulator, EmulatorError, FaultRuleError, type EmulatorEnv, type EmulatorErrorCode, type FaultRule, type Logger } from '../src/index.js';
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
    expectTypeOf<FaultRule>().toMatchTypeOf<{ type: 'latency' | 'status' | 'drop'; times?: number; method?: string; path?: string }>();
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
});

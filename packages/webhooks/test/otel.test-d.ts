import type { SpanContext } from '@opentelemetry/api';
import { describe, expectTypeOf, it } from 'vitest';
import type { CallbackPayload, VerifiedCallback } from '../src/index.js';
import { traceCallbacks, type CallbackTelemetryOptions } from '../src/otel-entry.js';

describe('traceCallbacks types', () => {
  it('keeps the handler\'s parameters and result (as a promise)', () => {
    const traced = traceCallbacks((payload: CallbackPayload, callback: VerifiedCallback) => callback.identity.length + Number(payload.reference_id !== undefined));
    expectTypeOf(traced).toEqualTypeOf<(payload: CallbackPayload, callback: VerifiedCallback) => Promise<number>>();
    expectTypeOf(traceCallbacks(async (_p: CallbackPayload) => 'x')).toEqualTypeOf<(payload: CallbackPayload) => Promise<string>>();
    expectTypeOf<CallbackTelemetryOptions['sendSpanTimeoutMs']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<CallbackTelemetryOptions['sendSpan']>().toEqualTypeOf<((referenceId: string) => SpanContext | undefined | Promise<SpanContext | undefined>) | undefined>();
  });

  it('refuses a handler whose first parameter is not a callback payload', () => {
    // @ts-expect-error: the handler must take the payload first
    traceCallbacks((n: number) => n);
  });
});

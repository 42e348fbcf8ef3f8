import { describe, expectTypeOf, it } from 'vitest';
import type { BulkSmsCallback, CallbackPayload, InboundSmsCallback, SmsCallback, VerifyApiCallback, VoiceCallback } from '../src/index.js';
import { createRouter, nextDeliveryState, type CallbackEvent, type DeliveryState, type RouteOutcome, type RouterOptions, type UnhandledCallback } from '../src/router-entry.js';

describe('createRouter types', () => {
  it('each handler gets the payload of its event; the fallback gets any callback', () => {
    createRouter()
      .on('sms.delivered', (p) => expectTypeOf(p).toEqualTypeOf<SmsCallback>())
      .on('bulk_sms.failed', (p) => expectTypeOf(p).toEqualTypeOf<BulkSmsCallback>())
      .on('call.answered', (p) => expectTypeOf(p).toEqualTypeOf<VoiceCallback>())
      .on('verify.completed', (p) => expectTypeOf(p).toEqualTypeOf<VerifyApiCallback>())
      .on('inbound.sms', (p) => expectTypeOf(p).toEqualTypeOf<InboundSmsCallback>())
      .otherwise((p) => expectTypeOf(p).toEqualTypeOf<CallbackPayload>());
  });

  it('refuses an event that does not exist, and a handler of the wrong result type', () => {
    // @ts-expect-error: not an event
    createRouter().on('sms.delivred', () => undefined);
    // @ts-expect-error: a router of strings
    createRouter<string>().on('sms.failed', () => 1);
    expectTypeOf<'sms.delivered' | 'sms.failed' | 'verify.completed' | 'call.answered' | 'inbound.sms'>().toMatchTypeOf<CallbackEvent>();
  });

  it('handle fits handleCallback and tells what it did', () => {
    const router = createRouter<number>();
    expectTypeOf(router.handle).parameter(0).toEqualTypeOf<CallbackPayload>();
    expectTypeOf(router.handle).returns.resolves.toEqualTypeOf<RouteOutcome<number | undefined>>();
    expectTypeOf(nextDeliveryState).returns.toEqualTypeOf<DeliveryState>();
    expectTypeOf<Extract<RouteOutcome<number>, { reason: 'unhandled' }>>().toEqualTypeOf<{ routed: false; event: CallbackEvent | undefined; reason: 'unhandled' }>();
  });

  it('onUnhandled gets the event, kind and reference id (never the payload)', () => {
    expectTypeOf<RouterOptions['onUnhandled']>().toEqualTypeOf<((unhandled: UnhandledCallback) => void | Promise<void>) | undefined>();
    expectTypeOf<keyof UnhandledCallback>().toEqualTypeOf<'event' | 'kind' | 'referenceId'>();
  });
});

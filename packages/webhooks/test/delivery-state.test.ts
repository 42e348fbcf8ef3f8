// The delivery-state rule over real callback sequences, in every order and with repeats: the state
// they end in does not depend on the order, and a final status is never replaced by one in progress.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deliveryStateOf, nextDeliveryState, parseUpdatedOn, type DeliveryState } from '../src/router-entry.js';
import type { CallbackPayload } from '../src/index.js';

const sms = (code: number, updated_on: string): CallbackPayload => ({ reference_id: 'A'.repeat(32), sub_resource: 'sms', errors: [], status: { code, description: '', updated_on } });
const call = (code: number, updated_on: string): CallbackPayload => ({ reference_id: 'B'.repeat(32), sub_resource: 'voice', errors: [], status: { code, description: '', updated_on } });
const verify = (state: string, updated_on: string) => ({ reference_id: 'C'.repeat(32), state, updated_on }) as CallbackPayload;

// Real sequences as the service sends them (both date forms occur).
const SEQUENCES: Record<string, CallbackPayload[]> = {
  'sms 290 -> 203 -> 200': [sms(290, '2026-01-01T00:00:01.000000Z'), sms(203, 'Thu, 01 Jan 2026 00:00:02 GMT'), sms(200, '2026-01-01T00:00:05Z')],
  'sms 290 -> 210': [sms(290, '2026-01-01T00:00:01Z'), sms(210, '2026-01-01T00:00:09Z')],
  'sms 291 -> 292 -> 207 -> 200 (a later final wins)': [sms(291, '2026-01-01T00:00:01Z'), sms(292, '2026-01-01T00:00:02Z'), sms(207, '2026-01-01T00:00:03Z'), sms(200, 'Thu, 01 Jan 2026 00:00:04 GMT')],
  'call 103 -> 100': [call(103, '2026-01-01T00:00:01Z'), call(100, '2026-01-01T00:01:00+00:00')],
  'call 103 -> 107': [call(103, '2026-01-01T00:00:01Z'), call(107, '2026-01-01T00:00:30Z')],
  'verify CREATED -> ONGOING -> VERIFIED': [verify('CREATED', '2026-01-01T00:00:00Z'), verify('ONGOING', '2026-01-01T00:00:01Z'), verify('VERIFIED', '2026-01-01T00:00:40Z')],
};

const fold = (states: DeliveryState[]) => states.reduce<DeliveryState | undefined>((state, incoming) => nextDeliveryState(state, incoming), undefined);

/** Any order of the sequence with any repeats (each callback at least once). */
const arrivals = (sequence: CallbackPayload[]) =>
  fc.array(fc.nat(sequence.length - 1), { maxLength: 12 }).chain((extra) => fc.shuffledSubarray([...sequence.keys(), ...extra], { minLength: sequence.length + extra.length }));

describe('nextDeliveryState', () => {
  for (const [name, sequence] of Object.entries(SEQUENCES)) {
    const states = sequence.map((p) => deliveryStateOf(p)!);
    const inOrder = fold(states)!;

    it(`${name}: every order and duplication ends in the state of the sequence in order (${String(inOrder.code)})`, () => {
      expect(inOrder).toEqual(states.at(-1));
      fc.assert(fc.property(arrivals(sequence), (order) => {
          expect(fold(order.map((i) => states[i]!))).toEqual(inOrder);
        }));
    });

    it(`${name}: once final, never in progress again, and a repeat changes nothing`, () => {
      fc.assert(
        fc.property(arrivals(sequence), (order) => {
          let state: DeliveryState | undefined;
          for (const i of order) {
            const next = nextDeliveryState(state, states[i]!);
            if (state?.final) expect(next.final).toBe(true);
            expect(nextDeliveryState(next, states[i]!)).toBe(next);
            state = next;
          }
        }),
      );
    });
  }

  it('among finals the later updated_on wins, whichever arrives first', () => {
    const failed = deliveryStateOf(sms(207, '2026-01-01T00:00:03Z'))!;
    const delivered = deliveryStateOf(sms(200, 'Thu, 01 Jan 2026 00:00:04 GMT'))!;
    expect(nextDeliveryState(failed, delivered)).toBe(delivered);
    expect(nextDeliveryState(delivered, failed)).toBe(delivered);
  });
});

describe('parseUpdatedOn', () => {
  it('reads RFC 3339 (fractions, offsets) and RFC 1123 alike; NaN for anything else', () => {
    const at = Date.UTC(2026, 0, 1, 12, 0, 0);
    expect(parseUpdatedOn('2026-01-01T12:00:00Z')).toBe(at);
    expect(parseUpdatedOn('2026-01-01T12:00:00.123456Z')).toBe(at + 123);
    expect(parseUpdatedOn('2026-01-01T14:00:00+02:00')).toBe(at);
    expect(parseUpdatedOn('Thu, 01 Jan 2026 12:00:00 GMT')).toBe(at);
    expect(parseUpdatedOn('Thu, 01 Jan 2026 07:00:00 -0500')).toBe(at);
    expect(parseUpdatedOn('yesterday')).toBeNaN();
    expect(parseUpdatedOn('Thu, 01 Foo 2026 12:00:00 GMT')).toBeNaN();
  });
});

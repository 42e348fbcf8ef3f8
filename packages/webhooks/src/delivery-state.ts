import type { CallbackPayload } from './types.js';
import { callbackKind } from './types.js';

// The delivery-state rule: the state a stream of callbacks about one message ends in, whatever the
// order and however often each arrives. States are ordered (final above in progress, then the later
// `updated_on`, then the code); the next state is the greater of the two, so the outcome does not
// depend on the order and a repeat changes nothing.

/** Where a message, call or verification stands, as its callbacks report it. */
export interface DeliveryState {
  /** The status code (SMS, voice) or the state (Verify API) reported. */
  code: number | string;
  /** A final status: nothing the service sends later replaces it with one in progress. */
  final: boolean;
  /** `updated_on` in epoch milliseconds; 0 when absent or not a date. */
  updatedAt: number;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const RFC_3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):?(\d{2}))$/;
const RFC_1123 = /^(?:[A-Z][a-z]{2}, )?(\d{1,2}) ([A-Z][a-z]{2}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) (?:GMT|UTC|[Zz]|([+-])(\d{2})(\d{2}))$/;

/**
 * `updated_on` in epoch milliseconds, in either form the service sends: RFC 3339
 * (`2026-01-01T12:00:00.123456Z`) or RFC 1123 (`Thu, 01 Jan 2026 12:00:00 GMT`). NaN otherwise.
 *
 * @example
 * ```ts
 * import { parseUpdatedOn } from '@x/webhooks/router';
 *
 * parseUpdatedOn('Thu, 01 Jan 2026 12:00:00 GMT') === parseUpdatedOn('2026-01-01T12:00:00Z'); // true
 * ```
 */
export function parseUpdatedOn(text: string): number {
  const iso = RFC_3339.exec(text);
  if (iso) {
    const [, y, mo, d, h, mi, s, frac = '', , sign, oh = '0', om = '0'] = iso;
    const offset = sign ? (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om)) : 0;
    return Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), Number(frac.slice(0, 3).padEnd(3, '0'))) - offset * 60_000;
  }
  const web = RFC_1123.exec(text);
  const month = web ? MONTHS.indexOf(web[2]!) : -1;
  if (!web || month < 0) return Number.NaN;
  const [, d, , y, h, mi, s, sign, oh = '0', om = '0'] = web;
  const offset = sign ? (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om)) : 0;
  return Date.UTC(Number(y), month, Number(d), Number(h), Number(mi), Number(s)) - offset * 60_000;
}

const SMS_PENDING = new Set([203, 290, 291, 292, 293, 295]);
const VOICE_PENDING = new Set([103, 105]);
const VERIFY_PENDING = new Set(['CREATED', 'ONGOING']);

/**
 * The state a callback reports, or undefined for a callback without one (an inbound SMS, a v2
 * Voice event, a kind this version does not know).
 *
 * @example
 * ```ts
 * import type { CallbackPayload } from '@x/webhooks';
 * import { deliveryStateOf } from '@x/webhooks/router';
 *
 * const payload: CallbackPayload = { reference_id: 'A1', sub_resource: 'sms', errors: [], status: { code: 290, description: 'Message in progress', updated_on: 'Thu, 01 Jan 2026 00:00:00 GMT' } };
 * deliveryStateOf(payload); // { code: 290, final: false, updatedAt: 1767225600000 }
 * ```
 */
export function deliveryStateOf(payload: CallbackPayload): DeliveryState | undefined {
  const kind = callbackKind(payload);
  const updatedOn = payload.status?.updated_on ?? (kind === 'verify_api' ? (payload as { updated_on?: string }).updated_on : undefined);
  const parsed = typeof updatedOn === 'string' ? parseUpdatedOn(updatedOn) : Number.NaN;
  const updatedAt = Number.isFinite(parsed) ? parsed : 0;
  if (kind === 'verify_api') {
    const state = (payload as { state: string }).state;
    return { code: state, final: !VERIFY_PENDING.has(state), updatedAt };
  }
  if (kind === 'inbound_sms' || kind === 'voice_event' || kind === 'unknown' || !payload.status) return undefined;
  const code = payload.status.code;
  const pending = kind === 'voice' || kind === 'verify_call' ? VOICE_PENDING : SMS_PENDING;
  return { code, final: !pending.has(code), updatedAt };
}

/** -1, 0 or 1: how `a` ranks against `b` (final, then later, then the code as text). */
function rank(a: DeliveryState, b: DeliveryState): number {
  if (a.final !== b.final) return a.final ? 1 : -1;
  if (a.updatedAt !== b.updatedAt) return a.updatedAt > b.updatedAt ? 1 : -1;
  const x = String(a.code);
  const y = String(b.code);
  return x === y ? 0 : x > y ? 1 : -1;
}

/**
 * The state after `incoming` arrives: a final status is never replaced by one in progress, the
 * later `updated_on` wins (among finals, and among those in progress), and the same state again
 * (same code, same `updated_on`) is a duplicate. Returns `previous` itself when `incoming` changes
 * nothing (a duplicate or a stale callback), so `next === previous` tells you to ignore it.
 * Whatever order the callbacks of one message arrive in, and however often, the state they end
 * in is the same.
 *
 * @example
 * ```ts
 * import { nextDeliveryState } from '@x/webhooks/router';
 *
 * const delivered = { code: 200, final: true, updatedAt: Date.parse('2026-01-01T00:00:05Z') };
 * const inProgress = { code: 290, final: false, updatedAt: Date.parse('2026-01-01T00:00:01Z') };
 * nextDeliveryState(delivered, inProgress) === delivered; // true: the late 290 is ignored
 * ```
 */
export function nextDeliveryState(previous: DeliveryState | undefined, incoming: DeliveryState): DeliveryState {
  if (!previous) return incoming;
  return rank(incoming, previous) > 0 ? incoming : previous;
}

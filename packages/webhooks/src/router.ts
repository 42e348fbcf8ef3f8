import { nextDeliveryState, deliveryStateOf, type DeliveryState } from './delivery-state.js';
import { WebhookError } from './errors.js';
import { callbackKind, type CallbackKind, type CallbackKinds, type CallbackPayload } from './types.js';

// The one list of event names: each event and the kind of callback its handler gets. The types of
// the handlers (`CallbackEvents`) and the check of `on()` both read it.
const EVENT_KINDS = {
  'sms.delivered': 'sms_status',
  'sms.pending': 'sms_status',
  'sms.failed': 'sms_status',
  'bulk_sms.delivered': 'bulk_sms',
  'bulk_sms.pending': 'bulk_sms',
  'bulk_sms.failed': 'bulk_sms',
  'verify_sms.delivered': 'verify_sms',
  'verify_sms.pending': 'verify_sms',
  'verify_sms.failed': 'verify_sms',
  'call.answered': 'voice',
  'call.pending': 'voice',
  'call.failed': 'voice',
  'verify_call.answered': 'verify_call',
  'verify_call.pending': 'verify_call',
  'verify_call.failed': 'verify_call',
  'verify.completed': 'verify_api',
  'verify.pending': 'verify_api',
  'inbound.sms': 'inbound_sms',
  'voice.event': 'voice_event',
} as const satisfies Readonly<Record<string, CallbackKind>>;

/** Each event a router dispatches, and the payload its handler gets. */
export type CallbackEvents = { [E in keyof typeof EVENT_KINDS]: CallbackKinds[(typeof EVENT_KINDS)[E]] };

/** The name of an event: `sms.delivered`, `call.answered`, `inbound.sms`, ... */
export type CallbackEvent = keyof CallbackEvents;

const isEvent = (name: unknown): name is CallbackEvent => typeof name === 'string' && Object.hasOwn(EVENT_KINDS, name);

const PREFIX = { sms_status: 'sms', bulk_sms: 'bulk_sms', verify_sms: 'verify_sms', voice: 'call', verify_call: 'verify_call' } as const;
const SMS_DELIVERED = new Set<unknown>([200, 201]);

/**
 * The event of a callback: its kind and, for a status, whether it is final and a success
 * (SMS 200/201 delivered, 203 and 29x pending, any other code failed; calls 100 answered, 103/105
 * pending, others failed; Verify API VERIFIED/REJECTED/FAILED/CANCELED completed). Undefined for a
 * kind this version does not know.
 *
 * @example
 * ```ts
 * import type { CallbackPayload } from '@x/webhooks';
 * import { callbackEvent } from '@x/webhooks/router';
 *
 * const payload: CallbackPayload = { reference_id: 'A1', sub_resource: 'sms', errors: [], status: { code: 210, description: 'Temporary phone error', updated_on: '2026-01-01T00:00:00Z' } };
 * callbackEvent(payload); // 'sms.failed'
 * ```
 */
export function callbackEvent(payload: CallbackPayload): CallbackEvent | undefined {
  const kind = callbackKind(payload);
  if (kind === 'inbound_sms') return 'inbound.sms';
  if (kind === 'voice_event') return 'voice.event';
  const state = deliveryStateOf(payload);
  if (kind === 'unknown' || !state) return undefined;
  if (kind === 'verify_api') return state.final ? 'verify.completed' : 'verify.pending';
  const prefix = PREFIX[kind];
  if (!state.final) return `${prefix}.pending`;
  const calls = prefix === 'call' || prefix === 'verify_call';
  const success = calls ? state.code === 100 : SMS_DELIVERED.has(state.code);
  return success ? (calls ? `${prefix as 'call'}.answered` : `${prefix as 'sms'}.delivered`) : `${prefix}.failed`;
}

/**
 * Where a router keeps the state of each message: `get` the stored text, and `compareAndSet` it
 * atomically (write `next` only if the stored text is still `expected`, `null` for none).
 * `createMemoryStateStore()` for one process, `createRedisStateStore()` from `@x/redis` for many.
 */
export interface DeliveryStateStore {
  get(key: string): string | null | Promise<string | null>;
  compareAndSet(key: string, expected: string | null, next: string, ttlMs: number): boolean | Promise<boolean>;
}

/** What a router did with a callback. */
export type RouteOutcome<T> =
  | { routed: true; event: CallbackEvent | undefined; value: T }
  /** With a state store: the callback changes nothing (a repeat, or older than the state held). */
  | { routed: false; event: CallbackEvent | undefined; reason: 'duplicate' | 'stale'; state: DeliveryState }
  /** No handler of its event and no fallback: reported to `onUnhandled`, and the state is not written. */
  | { routed: false; event: CallbackEvent | undefined; reason: 'unhandled' };

/** A callback no handler took, as `onUnhandled` gets it (no payload: it may hold a phone number or a message). */
export interface UnhandledCallback {
  /** Its event; undefined for a kind this version does not know. */
  event: CallbackEvent | undefined;
  /** Its kind (`callbackKind`): `unknown` for a family this version does not know. */
  kind: CallbackKind | 'unknown';
  /** The `reference_id` of the message, call or verification it is about. */
  referenceId: string;
}

type Handler<P, T> = (payload: P) => T | Promise<T>;

export interface RouterOptions {
  /** Keeps the state of each message so that repeats and stale callbacks never reach a handler. */
  store?: DeliveryStateStore | undefined;
  /** How long a message's state is kept. Default 7 days. */
  stateTtlMs?: number | undefined;
  /**
   * Told of each callback that has no handler of its event while the router has no `otherwise`:
   * the router answers `{ routed: false, reason: 'unhandled' }` and does not write its state.
   * Default: a `console.warn` line naming the event. Throw from it to fail the delivery instead
   * (with `handleCallback` or an adapter the service then gets a 5xx and retries).
   */
  onUnhandled?: ((unhandled: UnhandledCallback) => void | Promise<void>) | undefined;
}

/** A typed callback router: one handler per event, a fallback for the rest. */
export interface CallbackRouter<T> {
  on<E extends CallbackEvent>(event: E, handler: Handler<CallbackEvents[E], T>): CallbackRouter<T>;
  /** For callbacks without a handler of their event, and kinds this version does not know. */
  otherwise(handler: Handler<CallbackPayload, T>): CallbackRouter<T>;
  /** Dispatches one verified callback: pass it as `handleCallback`'s handler, or call it from an adapter's route. */
  handle: (payload: CallbackPayload) => Promise<RouteOutcome<T | undefined>>;
}

const WEEK_MS = 7 * 86_400_000;
const MAX_CAS_ATTEMPTS = 16;

/**
 * A typed callback router. Each handler gets its event's payload type; `otherwise` gets the
 * rest. With a `store`, the state of each message follows `nextDeliveryState`, and a callback
 * that does not change it (a repeat, a 290 after the 200) is answered without a handler.
 * `on()` throws `WebhookError('unknown_event')` for a name that is not an event (the message lists
 * them), and `invalid_handler` for a second handler of an event or a handler that is not a function.
 * A callback with no handler of its event and no `otherwise` is never recorded as handled: it goes
 * to `onUnhandled` (default a warning) and its state is not written.
 *
 * @example
 * ```ts
 * import { handleCallback } from '@x/webhooks';
 * import { createMemoryStateStore, createRouter } from '@x/webhooks/router';
 *
 * const router = createRouter({ store: createMemoryStateStore() })
 *   .on('sms.delivered', (sms) => db.saveStatus(sms.reference_id, 'delivered'))
 *   .on('sms.failed', (sms) => db.saveStatus(sms.reference_id, 'failed', sms.status.code))
 *   .on('inbound.sms', (mo) => db.saveStatus(mo.user_response.phone_number, mo.user_response.mo_message))
 *   .otherwise(() => undefined);
 * export const receive = (body: Uint8Array, headers: Record<string, string>) => handleCallback({ body, headers }, { customerId, apiKey }, router.handle);
 * ```
 */
export function createRouter<T = unknown>(options: RouterOptions = {}): CallbackRouter<T> {
  const handlers = new Map<string, Handler<never, T>>();
  let fallback: Handler<CallbackPayload, T> | undefined;
  const ttl = options.stateTtlMs ?? WEEK_MS;
  const router: CallbackRouter<T> = {
    on(event, handler) {
      if (!isEvent(event)) throw new WebhookError('unknown_event', `${JSON.stringify(event)} is not an event a router dispatches (check its spelling). Known events: ${Object.keys(EVENT_KINDS).join(', ')}.`);
      if (handlers.has(event)) throw new WebhookError('invalid_handler', `${event} has a handler already: one handler per event (call both from one function).`);
      handlers.set(event, checked(handler, `on('${event}', handler)`) as Handler<never, T>);
      return router;
    },
    otherwise(handler) {
      if (fallback) throw new WebhookError('invalid_handler', 'The router has a fallback already: call otherwise() once.');
      fallback = checked(handler, 'otherwise(handler)');
      return router;
    },
    handle: async (payload) => {
      const event = callbackEvent(payload);
      const incoming = deliveryStateOf(payload);
      const key = `state:${payload.reference_id}`;
      const { store } = options;
      if (store && incoming) {
        const held = unchanged(await read(store, key), incoming);
        if (held) return { routed: false, event, reason: held.reason, state: held.state };
      }
      const handler = (event && handlers.get(event)) as Handler<CallbackPayload, T> | undefined;
      const run = handler ?? fallback;
      if (!run) {
        // Never recorded as handled: the state stays as it was, so the same callback, when it comes again, reaches the handler added since.
        await (options.onUnhandled ?? warnUnhandled)({ event, kind: callbackKind(payload), referenceId: String(payload.reference_id) });
        return { routed: false, event, reason: 'unhandled' };
      }
      const value = await run(payload);
      // Recorded once the handler succeeded: a handler that throws leaves the state as it was, so the retry runs it.
      if (store && incoming) await record(store, key, incoming, ttl);
      return { routed: true, event, value };
    },
  };
  return router;
}

function warnUnhandled({ event, kind, referenceId }: UnhandledCallback): void {
  const take = event ? `.on('${event}', handler)` : 'a handler';
  console.warn(`@x/webhooks router: no handler for a ${event ?? `callback of a kind this version does not know (${kind})`} (reference_id ${referenceId}) and no otherwise(): not processed. Add ${take} or .otherwise(handler), or pass onUnhandled to decide.`);
}

function checked<H>(handler: H, call: string): H {
  if (typeof handler !== 'function') throw new WebhookError('invalid_handler', `${call}: the handler must be a function, not ${handler === null ? 'null' : typeof handler}.`);
  return handler;
}

async function read(store: DeliveryStateStore, key: string): Promise<{ stored: string | null; previous: DeliveryState | undefined }> {
  const stored = await store.get(key);
  return { stored, previous: stored === null ? undefined : (JSON.parse(stored) as DeliveryState) };
}

/** Why `incoming` changes nothing after `previous`, or undefined when it advances the state. */
function unchanged({ previous }: { previous: DeliveryState | undefined }, incoming: DeliveryState): { reason: 'duplicate' | 'stale'; state: DeliveryState } | undefined {
  if (!previous || nextDeliveryState(previous, incoming) !== previous) return undefined;
  const same = previous.code === incoming.code && previous.updatedAt === incoming.updatedAt && previous.final === incoming.final;
  return { reason: same ? 'duplicate' : 'stale', state: previous };
}

/** Applies the rule in the store with compare-and-set, until written or no longer an advance. */
async function record(store: DeliveryStateStore, key: string, incoming: DeliveryState, ttlMs: number): Promise<void> {
  for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
    const current = await read(store, key);
    if (unchanged(current, incoming)) return;
    if (await store.compareAndSet(key, current.stored, JSON.stringify(incoming), ttlMs)) return;
  }
  throw new WebhookError('state_contended', `The state of ${key} kept changing during ${MAX_CAS_ATTEMPTS} attempts; answer 5xx so the service retries.`);
}

/**
 * A state store in this process's memory, holding at most `maxEntries` messages (default 10,000;
 * the oldest written is dropped first).
 *
 * @example
 * ```ts
 * import { createMemoryStateStore, createRouter } from '@x/webhooks/router';
 *
 * const router = createRouter({ store: createMemoryStateStore({ maxEntries: 50_000 }) });
 * ```
 */
export function createMemoryStateStore(options: { maxEntries?: number | undefined; now?: (() => number) | undefined } = {}): DeliveryStateStore & { readonly size: number } {
  const max = options.maxEntries ?? 10_000;
  const now = options.now ?? Date.now;
  const entries = new Map<string, { value: string; expiry: number }>();
  const live = (key: string) => {
    const entry = entries.get(key);
    if (entry && entry.expiry <= now()) entries.delete(key);
    return entry && entry.expiry > now() ? entry.value : null;
  };
  return {
    get: live,
    compareAndSet(key, expected, next, ttlMs) {
      if (live(key) !== expected) return false;
      entries.delete(key);
      entries.set(key, { value: next, expiry: now() + ttlMs });
      if (entries.size > max) entries.delete(entries.keys().next().value!);
      return true;
    },
    get size() {
      return entries.size;
    },
  };
}

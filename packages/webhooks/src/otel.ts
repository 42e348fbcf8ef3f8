// OpenTelemetry for callbacks: what traceCallbacks() records around a handler.
import { metrics, SpanKind, SpanStatusCode, trace, type Attributes, type Link, type MeterProvider, type SpanContext, type TracerProvider } from '@opentelemetry/api';
import { parseUpdatedOn } from './delivery-state.js';
import { WebhookError } from './errors.js';
import { callbackKind, type CallbackPayload } from './types.js';

/** Where the spans and metrics of `traceCallbacks` go, and how a send's span is found. */
export interface CallbackTelemetryOptions {
  /** Default: the global tracer provider. */
  tracerProvider?: TracerProvider | undefined;
  /** Default: the global meter provider. */
  meterProvider?: MeterProvider | undefined;
  /**
   * The span context of the send of `referenceId`, when this process knows it (kept by `onSend`
   * of `@x/client/otel`'s `instrument`, in memory or a shared store): the callback's span links to
   * it. Without it, or when it answers undefined, the spans are joined by `x.reference_id`.
   */
  sendSpan?: ((referenceId: string) => SpanContext | undefined | Promise<SpanContext | undefined>) | undefined;
  /**
   * How long a `sendSpan` lookup may take, in milliseconds. Default 1500. Past it the delivery
   * goes on without the link, and its span says so (`x.send_span.lookup: 'timeout'`).
   */
  sendSpanTimeoutMs?: number | undefined;
}

const DEFAULT_SEND_SPAN_TIMEOUT_MS = 1_500;

/** The send's span context, or why there is none: the lookup failed, or did not answer in time. */
async function lookUp(sendSpan: NonNullable<CallbackTelemetryOptions['sendSpan']>, referenceId: string, timeoutMs: number): Promise<SpanContext | undefined | 'failed' | 'timeout'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(resolve, timeoutMs, 'timeout');
  });
  try {
    // A lookup that fails costs the link, never the delivery; one that never answers is left behind.
    const found = Promise.resolve()
      .then(() => sendSpan(referenceId))
      .catch(() => 'failed' as const);
    return await Promise.race([found, late]);
  } finally {
    clearTimeout(timer);
  }
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * `status.updated_on` minus `submit_timestamp` in milliseconds (the Verify API's: `updated_on` minus
 * `created_on`), when both are there and readable (RFC 3339 or RFC 1123).
 */
function latencyOf(payload: { submit_timestamp?: unknown; created_on?: unknown; updated_on?: unknown; status?: { updated_on?: unknown } }): number | undefined {
  const submitted = text(payload.submit_timestamp) ?? text(payload.created_on);
  const updated = text(payload.status?.updated_on) ?? text(payload.updated_on);
  if (submitted === undefined || updated === undefined) return undefined;
  const ms = parseUpdatedOn(updated) - parseUpdatedOn(submitted);
  return Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}

/**
 * Your callback handler, traced: each call (a verified delivery, as `handleCallback`, an adapter or
 * `router.handle` runs it) is a `SpanKind.CONSUMER` span `callback <kind>` with `x.callback.kind`,
 * `x.reference_id`, `x.status_code` (or `x.callback.state` for the Verify API) and
 * `x.delivery.latency_ms` (the service's `status.updated_on` minus its `submit_timestamp`; for the
 * Verify API `updated_on` minus `created_on`), linked to the send's span when `sendSpan` knows it
 * within `sendSpanTimeoutMs` (1.5 s; a lookup that fails or is too late sets `x.send_span.lookup`
 * to `failed` or `timeout`, and the delivery goes on unlinked). A handler that throws makes the span an error (its
 * `error.type` is the error's `code` or class name, never its message) and the error is thrown on.
 * Metrics: `x.callback.deliveries` (counter) and `x.callback.delivery_latency` (histogram, seconds),
 * by kind. No phone number, message text, code entered or signature is recorded.
 *
 * @example
 * ```ts
 * import { handleCallback } from '@x/webhooks';
 * import { traceCallbacks } from '@x/webhooks/otel';
 *
 * const handler = traceCallbacks(async (payload) => {
 *   await db.saveStatus(payload);
 * });
 * export const receive = (body: Uint8Array, headers: Record<string, string>) => handleCallback({ body, headers }, { customerId, apiKey }, handler);
 * ```
 */
export function traceCallbacks<A extends unknown[], T>(
  handler: (payload: CallbackPayload, ...rest: A) => T | Promise<T>,
  options: CallbackTelemetryOptions = {},
): (payload: CallbackPayload, ...rest: A) => Promise<T> {
  const timeoutMs = options.sendSpanTimeoutMs ?? DEFAULT_SEND_SPAN_TIMEOUT_MS;
  if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs < 0) {
    throw new WebhookError('invalid_option', `sendSpanTimeoutMs must be a number of milliseconds, 0 or more (default ${DEFAULT_SEND_SPAN_TIMEOUT_MS}), not ${String(timeoutMs)}.`);
  }
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer('@x/webhooks');
  const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter('@x/webhooks');
  const deliveries = meter.createCounter('x.callback.deliveries', { description: 'Verified callback deliveries handled, by kind and outcome' });
  const latency = meter.createHistogram('x.callback.delivery_latency', { unit: 's', description: 'From the send (submit_timestamp) to the status the callback reports (status.updated_on)' });

  return async (payload, ...rest) => {
    const p = payload as { reference_id?: unknown; status?: { code?: unknown; updated_on?: unknown }; state?: unknown; submit_timestamp?: unknown; created_on?: unknown; updated_on?: unknown };
    const kind = callbackKind(payload);
    const referenceId = text(p.reference_id);
    const code = p.status?.code;
    const ms = latencyOf(p);
    const attributes: Attributes = {
      'x.callback.kind': kind,
      ...(referenceId !== undefined ? { 'x.reference_id': referenceId } : {}),
      ...(typeof code === 'number' ? { 'x.status_code': code } : {}),
      ...(kind === 'verify_api' && text(p.state) !== undefined ? { 'x.callback.state': text(p.state)!.slice(0, 32) } : {}),
      ...(ms !== undefined ? { 'x.delivery.latency_ms': ms } : {}),
    };
    let links: Link[] = [];
    if (referenceId !== undefined && options.sendSpan) {
      const send = await lookUp(options.sendSpan, referenceId, timeoutMs);
      if (send === 'failed' || send === 'timeout') attributes['x.send_span.lookup'] = send;
      else if (send && trace.isSpanContextValid(send)) links = [{ context: send, attributes: { 'x.reference_id': referenceId } }];
    }
    const metric: Attributes = { 'x.callback.kind': kind };
    return tracer.startActiveSpan(`callback ${kind}`, { kind: SpanKind.CONSUMER, attributes, links }, async (span) => {
      try {
        const value = await handler(payload, ...rest);
        // Once per processed delivery: a failed handler's copy is retried, and counted then.
        if (ms !== undefined) latency.record(ms / 1000, { ...metric, ...(typeof code === 'number' ? { 'x.status_code': code } : {}) });
        return value;
      } catch (error) {
        const e = error as { code?: unknown; name?: unknown } | null;
        const type = typeof e?.code === 'string' ? e.code : typeof e?.name === 'string' ? e.name : 'unknown';
        span.setAttribute('error.type', type);
        span.setStatus({ code: SpanStatusCode.ERROR, message: type });
        metric['error.type'] = type;
        throw error;
      } finally {
        span.end();
        deliveries.add(1, metric);
      }
    });
  };
}

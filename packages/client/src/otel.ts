// OpenTelemetry for the client: what instrument() records, over the client's hooks.
import { metrics, SpanKind, SpanStatusCode, trace, type Attributes, type MeterProvider, type Span, type SpanContext, type TracerProvider } from '@opentelemetry/api';
import type { Client } from './client.js';
import type { CreateClientOptions } from './routing.js';
import type { Hooks } from './transport/options.js';
import { maskPath } from './transport/mask.js';

declare const __VERSION__: string;

/** Where the spans and metrics of `instrument` go, and who hears of each send. */
export interface TelemetryOptions {
  /** Default: the global tracer provider (`trace.setGlobalTracerProvider`, what the OpenTelemetry SDKs register). */
  tracerProvider?: TracerProvider | undefined;
  /** Default: the global meter provider. */
  meterProvider?: MeterProvider | undefined;
  /**
   * Told of every call that succeeded with a `reference_id` in its answer: keep the span context
   * to link the delivery callback to the send (`traceCallbacks({ sendSpan })` of `@x/webhooks/otel`).
   */
  onSend?: ((send: { referenceId: string; spanContext: SpanContext; operation: string }) => void) | undefined;
}

/** What the hooks learn of a call while it runs, keyed by its span (the active span in the hooks). */
interface CallState {
  operation: string;
  /** The attempts made so far (the last `onRequest`'s number). */
  attempts: number;
}

const PHONE = /^\d{8,15}$/;
const REFERENCE = /^[0-9A-Fa-f]{32}$/;

/** The path with its ids as placeholders: `/v1/messaging/{reference_id}`, `/v1/phoneid/standard/{phone_number}`. */
const templateOf = (path: string): string =>
  path
    .split('/')
    .map((segment) => (REFERENCE.test(segment) ? '{reference_id}' : PHONE.test(segment) ? '{phone_number}' : segment))
    .join('/');

/** Whether the request may have reached the service: the error's own `sent`; answered (a status); refused before sending; else unknown. */
function sentOf(error: { code?: unknown; sent?: unknown; status?: unknown }): string {
  if (error.sent !== undefined) return String(error.sent);
  if (typeof error.status === 'number') return 'true';
  return error.code === 'validation_error' || error.code === 'configuration_error' ? 'false' : 'unknown';
}

/**
 * A client made by `create` (your `createClient`) with `options`, whose every call is a span
 * (`SpanKind.CLIENT`, named after the operation, e.g. `messaging.send`) with `x.operation`,
 * `http.request.method`, `url.template` (ids as `{reference_id}` and `{phone_number}`),
 * `server.address`, `server.port`, `http.response.status_code`, `x.status_code` (the service's),
 * `x.reference_id`, `http.request.resend_count`, `x.sent` (`true`, `false` or `unknown`),
 * `error.type` (the error's `code`) and `url.path` (phone numbers masked but their last 4 digits, as
 * in the log); never a query, a message text, a code, a key or a header. Metrics per operation: `x.client.calls` and
 * `x.client.retries` (counters), `x.client.call.duration` (histogram, seconds). Your own `hooks`
 * in `options` still run.
 *
 * The attempts of a call are attributed to its span through the active context: register a
 * context manager that follows `await` (the Node SDK does); without one, spans still carry the
 * outcome, but not the template, server or resend count.
 *
 * @example
 * ```ts
 * import { createClient } from '@x/client';
 * import { instrument } from '@x/client/otel';
 *
 * const client = instrument(createClient, { customerId, apiKey });
 * await client.messaging.send({ phoneNumber: '15555551234', message: 'Your order has shipped', messageType: 'ARN' }); // one span
 * ```
 */
export function instrument(create: (options?: CreateClientOptions) => Client, options: CreateClientOptions = {}, telemetry: TelemetryOptions = {}): Client {
  const tracer = (telemetry.tracerProvider ?? trace.getTracerProvider()).getTracer('@x/client', __VERSION__);
  const meter = (telemetry.meterProvider ?? metrics.getMeterProvider()).getMeter('@x/client', __VERSION__);
  const calls = meter.createCounter('x.client.calls', { description: 'Client calls, by operation and outcome' });
  const retries = meter.createCounter('x.client.retries', { description: 'Attempts made again, by operation' });
  const duration = meter.createHistogram('x.client.call.duration', { unit: 's', description: 'Duration of a client call, retries and waits included' });
  const running = new WeakMap<Span, CallState>();

  const current = () => {
    const span = trace.getActiveSpan();
    const state = span && running.get(span);
    return state && { span: span!, state };
  };
  const given: Hooks = options.hooks ?? {};
  const hooks: Hooks = {
    onRequest(e) {
      const call = current();
      if (call) {
        call.state.attempts = e.attempt;
        if (e.attempt === 1) {
          const url = new URL(e.url);
          call.span.setAttributes({
            'http.request.method': e.method,
            'url.template': templateOf(url.pathname),
            'url.path': maskPath(url.pathname),
            'server.address': url.hostname,
            'server.port': Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
          });
        }
      }
      given.onRequest?.(e);
    },
    onResponse: given.onResponse,
    onRetry(e) {
      const call = current();
      if (call) {
        call.span.addEvent('retry', { 'x.attempt': e.attempt, 'x.retry.delay_ms': e.delayMs, 'error.type': e.error.code });
        retries.add(1, { 'x.operation': call.state.operation });
      }
      given.onRetry?.(e);
    },
  };

  const wrap =
    <A extends unknown[], R>(operation: string, fn: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> => {
      const started = performance.now();
      return tracer.startActiveSpan(operation, { kind: SpanKind.CLIENT, attributes: { 'x.operation': operation } }, async (span) => {
        const state: CallState = { operation, attempts: 0 };
        running.set(span, state);
        const outcome: Attributes = { 'x.operation': operation };
        const settle = (facts: Attributes) => {
          if (state.attempts) facts['http.request.resend_count'] = state.attempts - 1;
          span.setAttributes(facts);
          Object.assign(outcome, facts['error.type'] !== undefined ? { 'error.type': facts['error.type'] } : {}, facts['http.response.status_code'] !== undefined ? { 'http.response.status_code': facts['http.response.status_code'] } : {});
        };
        try {
          const result = await fn(...args);
          const { status, data } = (result ?? {}) as { status?: unknown; data?: { status?: { code?: unknown }; reference_id?: unknown } };
          const code = data?.status?.code;
          const referenceId = data?.reference_id;
          settle({
            'x.sent': 'true',
            ...(typeof status === 'number' ? { 'http.response.status_code': status } : {}),
            ...(typeof code === 'number' ? { 'x.status_code': code } : {}),
            ...(typeof referenceId === 'string' ? { 'x.reference_id': referenceId } : {}),
          });
          try {
            if (typeof referenceId === 'string') telemetry.onSend?.({ referenceId, spanContext: span.spanContext(), operation });
          } catch {
            // A failing listener must not fail the call (the send is done).
          }
          return result;
        } catch (error) {
          const e = (error ?? {}) as { code?: unknown; status?: unknown; serviceCode?: unknown; referenceId?: unknown; sent?: unknown };
          const type = typeof e.code === 'string' ? e.code : 'unknown';
          settle({
            'error.type': type,
            'x.sent': sentOf(e),
            ...(typeof e.status === 'number' ? { 'http.response.status_code': e.status } : {}),
            ...(typeof e.serviceCode === 'number' ? { 'x.status_code': e.serviceCode } : {}),
            ...(typeof e.referenceId === 'string' ? { 'x.reference_id': e.referenceId } : {}),
          });
          // The code only: an error's message may name the path, and so a phone number.
          span.setStatus({ code: SpanStatusCode.ERROR, message: type });
          throw error;
        } finally {
          span.end();
          calls.add(1, outcome);
          duration.record((performance.now() - started) / 1000, outcome);
        }
      });
    };

  const client = create({ ...options, hooks });
  const wrapped = { request: wrap('request', client.request.bind(client)) } as Client;
  for (const [product, operations] of Object.entries(client)) {
    if (typeof operations !== 'object' || operations === null) continue;
    const copy: Record<string, unknown> = {};
    for (const [name, fn] of Object.entries(operations as Record<string, unknown>)) copy[name] = typeof fn === 'function' ? wrap(`${product}.${name}`, fn as (...args: unknown[]) => Promise<unknown>) : fn;
    (wrapped as unknown as Record<string, unknown>)[product] = copy;
  }
  return wrapped;
}

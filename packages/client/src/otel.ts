// OpenTelemetry for the client: what instrument() records, over the client's hooks.
import { metrics, SpanKind, SpanStatusCode, trace, type Attributes, type MeterProvider, type Span, type SpanContext, type TracerProvider } from '@opentelemetry/api';
import type { Client } from './client.js';
import type { CreateClientOptions } from './routing.js';
import type { Hooks, RawRequest } from './transport/options.js';

declare const __VERSION__: string;

/**
 * The operations that create a transaction (a message, a call, a verification): those whose
 * options take an `idempotencyKey`. `onSend` hears these, never a look-up or a check.
 */
export type SendOperation = 'messaging.send' | 'messaging.bulk' | 'voice.call' | 'verify.sms' | 'verify.call' | 'verifyApi.create';

/** Where the spans and metrics of `instrument` go, and who hears of each send. */
export interface TelemetryOptions {
  /** Default: the global tracer provider (`trace.setGlobalTracerProvider`, what the OpenTelemetry SDKs register). */
  tracerProvider?: TracerProvider | undefined;
  /** Default: the global meter provider. */
  meterProvider?: MeterProvider | undefined;
  /**
   * Told of every send (a `SendOperation`: an SMS, a bulk SMS, a call, an SMS or voice
   * verification, a Verify API verification) the service accepted, with the `reference_id` of its
   * answer: keep the span context to link the delivery callback to the send
   * (`traceCallbacks({ sendSpan })` of `@x/webhooks/otel`). Status look-ups, checks and `request()`
   * are never reported.
   */
  onSend?: ((send: { referenceId: string; spanContext: SpanContext; operation: SendOperation }) => void) | undefined;
}

const SENDS: ReadonlySet<string> = new Set<SendOperation>(['messaging.send', 'messaging.bulk', 'voice.call', 'verify.sms', 'verify.call', 'verifyApi.create']);

/** What the hooks learn of a call while it runs, keyed by its span (the active span in the hooks). */
interface CallState {
  operation: string;
  /** The attempts made so far (the last `onRequest`'s number). */
  attempts: number;
  /** The attributes of every attempt's duration point (method, server, template), from the first attempt. */
  http: Attributes | undefined;
  /** When the attempt without an answer yet started (performance.now()), or undefined. */
  open: number | undefined;
}

// The HTTP methods the conventions name; any other is `_OTHER`, with the original beside it.
const METHODS = new Set(['CONNECT', 'DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT', 'TRACE']);
const methodOf = (method: string): Attributes => (METHODS.has(method) ? { 'http.request.method': method } : { 'http.request.method': '_OTHER', 'http.request.method_original': method });

// A segment of a path is kept only when it is a word of the API (`v1`, `phoneid`, `number_deactivation`):
// anything else is an id, whatever its spelling, and becomes a placeholder.
const WORD = /^[A-Za-z][A-Za-z_-]{0,38}\d{0,2}$/;
const HEX32 = /^[0-9A-Fa-f]{32}$/;
const PHONE = /^[\d\s+().-]*\d[\d\s+().-]*$/;
const ESCAPES = /%([0-9A-Fa-f]{2})/g;
const ESCAPED = /%[0-9A-Fa-f]{2}/;

/** A segment with every %XX decoded, also when escaped twice (a few rounds, then as it stands). */
function decoded(segment: string): string {
  let text = segment;
  for (let round = 0; round < 4 && ESCAPED.test(text); round++) text = text.replace(ESCAPES, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return text;
}

/**
 * The path with its ids as placeholders, whatever their spelling (`+`, `%2B`, separators, any
 * character percent-encoded in upper or lower hex): `{email}` (an `@`), `{reference_id}` (32 hex
 * digits, dashed or not), `{phone_number}` (digits with `+ ( ) . -` or spaces), `{id}` for any
 * other segment that is not a word of the API.
 */
function templateOf(path: string): string {
  return path
    .split('/')
    .map((segment) => {
      if (segment === '') return segment;
      const text = decoded(segment);
      if (text.includes('@')) return '{email}';
      if (HEX32.test(text.replace(/-/g, ''))) return '{reference_id}';
      if (WORD.test(text)) return text;
      return PHONE.test(text) ? '{phone_number}' : '{id}';
    })
    .join('/');
}

/** `url.full` as recorded: no credentials, the path templated, no query (its values may be codes or numbers). */
const fullOf = (url: URL, template: string): string => `${url.protocol}//${url.host}${template}`;

/**
 * Whether the service took the request: `true` only for an answer it accepted (2xx); `false` when
 * it provably did not (refused before sending, never left, or refused with a 3xx or 4xx); else
 * `unknown` (a 5xx, a timeout, a connection lost after sending: a message may have gone out).
 */
function sentOf(error: { code?: unknown; sent?: unknown; status?: unknown }): 'false' | 'unknown' {
  if (error.sent === false) return 'false';
  if (error.sent !== undefined) return 'unknown';
  if (typeof error.status === 'number') return error.status >= 300 && error.status < 500 ? 'false' : 'unknown';
  return error.code === 'validation_error' || error.code === 'configuration_error' ? 'false' : 'unknown';
}

/** `error.type` as the HTTP conventions say: the status code of an error answer, else the error's `code`. */
function errorTypeOf(error: { code?: unknown; status?: unknown }): string {
  if (typeof error.status === 'number' && error.status >= 400) return String(error.status);
  return typeof error.code === 'string' ? error.code : 'unknown';
}

/**
 * A client made by `create` (your `createClient`) with `options`, whose every call is a span
 * (`SpanKind.CLIENT`, named after the operation, e.g. `messaging.send`; a `request()` is named
 * `<METHOD> <url.template>`). Attributes follow the stable OpenTelemetry HTTP client conventions:
 * `http.request.method`, `url.template` and `url.full` (every id of the path a placeholder whatever
 * its spelling: `{reference_id}`, `{phone_number}`, `{email}`, `{id}`; no query, no credentials),
 * `server.address`, `server.port`, `http.response.status_code`, `error.type` (the status code of an
 * error answer, else the error's `code`), `http.request.resend_count` (only on a call that was
 * retried). The SDK's own are under `x.`: `x.operation`, `x.status_code` (the service's),
 * `x.reference_id`, `x.sent` (`true` only when the service accepted the request, `false` when it
 * provably did not, else `unknown`). Never a query, a message text, a code, a key or a header.
 * Metrics: `http.client.request.duration` (seconds, one point per attempt, with the conventional
 * attributes and `url.template`), and per operation `x.client.calls`, `x.client.retries`
 * (counters) and `x.client.call.duration` (seconds, retries and waits included). Your own `hooks`
 * in `options` still run.
 *
 * The attempts of a call are attributed to its span through the active context: register a
 * context manager that follows `await` (the Node SDK does); without one, spans still carry the
 * outcome, but not the URL, server, resend count or the per-attempt durations.
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
  const requests = meter.createHistogram('http.client.request.duration', { unit: 's', description: 'Duration of HTTP client requests.' });
  const running = new WeakMap<Span, CallState>();

  const current = () => {
    const span = trace.getActiveSpan();
    const state = span && running.get(span);
    return state && { span: span!, state };
  };
  /** Records the attempt that has no answer yet, if one is open, as failed with `type`. */
  const closeAttempt = (state: CallState, type: string) => {
    if (state.open === undefined || !state.http) return;
    requests.record((performance.now() - state.open) / 1000, { ...state.http, 'error.type': type });
    state.open = undefined;
  };
  const given: Hooks = options.hooks ?? {};
  const hooks: Hooks = {
    onRequest(e) {
      const call = current();
      if (call) {
        call.state.attempts = e.attempt;
        if (!call.state.http) {
          const url = new URL(e.url);
          const template = templateOf(url.pathname);
          const server = { 'server.address': url.hostname.replace(/^\[(.*)\]$/, '$1'), 'server.port': Number(url.port || (url.protocol === 'https:' ? 443 : 80)) };
          call.state.http = { ...methodOf(e.method), ...server, 'url.template': template };
          call.span.setAttributes({ ...call.state.http, 'url.full': fullOf(url, template) });
        }
        call.state.open = performance.now();
      }
      given.onRequest?.(e);
    },
    onResponse(e) {
      const call = current();
      if (call?.state.http) {
        requests.record(e.durationMs / 1000, { ...call.state.http, 'http.response.status_code': e.status, ...(e.status >= 400 ? { 'error.type': String(e.status) } : {}) });
        call.state.open = undefined;
      }
      given.onResponse?.(e);
    },
    onRetry(e) {
      const call = current();
      if (call) {
        closeAttempt(call.state, e.error.code);
        call.span.addEvent('retry', { 'x.attempt': e.attempt, 'x.retry.delay_ms': e.delayMs, 'error.type': errorTypeOf(e.error) });
        retries.add(1, { 'x.operation': call.state.operation });
      }
      given.onRetry?.(e);
    },
  };

  const wrap =
    <A extends unknown[], R>(operation: string, fn: (...args: A) => Promise<R>, name: (...args: A) => string = () => operation) =>
    (...args: A): Promise<R> => {
      const started = performance.now();
      return tracer.startActiveSpan(name(...args), { kind: SpanKind.CLIENT, attributes: { 'x.operation': operation } }, async (span) => {
        const state: CallState = { operation, attempts: 0, http: undefined, open: undefined };
        running.set(span, state);
        const outcome: Attributes = { 'x.operation': operation };
        const settle = (facts: Attributes) => {
          if (state.attempts > 1) facts['http.request.resend_count'] = state.attempts - 1;
          span.setAttributes(facts);
          Object.assign(outcome, facts['error.type'] !== undefined ? { 'error.type': facts['error.type'] } : {}, facts['http.response.status_code'] !== undefined ? { 'http.response.status_code': facts['http.response.status_code'] } : {});
        };
        try {
          const result = await fn(...args);
          const { status, data } = (result ?? {}) as { status?: unknown; data?: { status?: { code?: unknown }; reference_id?: unknown } };
          const code = data?.status?.code;
          const referenceId = data?.reference_id;
          settle({
            'x.sent': typeof status !== 'number' || (status >= 200 && status < 300) ? 'true' : 'unknown',
            ...(typeof status === 'number' ? { 'http.response.status_code': status } : {}),
            ...(typeof code === 'number' ? { 'x.status_code': code } : {}),
            ...(typeof referenceId === 'string' ? { 'x.reference_id': referenceId } : {}),
          });
          try {
            if (typeof referenceId === 'string' && SENDS.has(operation)) telemetry.onSend?.({ referenceId, spanContext: span.spanContext(), operation: operation as SendOperation });
          } catch {
            // A failing listener must not fail the call (the send is done).
          }
          return result;
        } catch (error) {
          const e = (error ?? {}) as { code?: unknown; status?: unknown; serviceCode?: unknown; referenceId?: unknown; sent?: unknown };
          const type = errorTypeOf(e);
          closeAttempt(state, typeof e.code === 'string' ? e.code : 'unknown');
          settle({
            'error.type': type,
            'x.sent': sentOf(e),
            ...(typeof e.status === 'number' ? { 'http.response.status_code': e.status } : {}),
            ...(typeof e.serviceCode === 'number' ? { 'x.status_code': e.serviceCode } : {}),
            ...(typeof e.referenceId === 'string' ? { 'x.reference_id': e.referenceId } : {}),
          });
          // The type only: an error's message may name the path, and so a phone number.
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
  const requestName = (request: RawRequest) => {
    const method = typeof request?.method === 'string' ? request.method : '';
    const path = typeof request?.path === 'string' ? templateOf(request.path.split(/[?#]/)[0]!) : '';
    return `${METHODS.has(method) ? method : 'HTTP'} ${path}`.trim();
  };
  const wrapped = { request: wrap('request', client.request.bind(client), requestName) } as Client;
  for (const [product, operations] of Object.entries(client)) {
    if (typeof operations !== 'object' || operations === null) continue;
    const copy: Record<string, unknown> = {};
    for (const [name, fn] of Object.entries(operations as Record<string, unknown>)) copy[name] = typeof fn === 'function' ? wrap(`${product}.${name}`, fn as (...args: unknown[]) => Promise<unknown>) : fn;
    (wrapped as unknown as Record<string, unknown>)[product] = copy;
  }
  return wrapped;
}

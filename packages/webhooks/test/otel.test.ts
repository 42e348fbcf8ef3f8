// @x/webhooks/otel with the OpenTelemetry SDK's in-memory exporters: the emulator (over HTTP on
// 127.0.0.1) delivers real signed callbacks to a receiver that runs handleCallback with a traced
// handler. One span per verified delivery, the send-to-delivery latency from the payload, a link to
// the send when it is known, an error span for a failed handler, and no code in any attribute.
import { SpanStatusCode, type Attributes, type SpanContext } from '@opentelemetry/api';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createMemoryReplayStore, signRequest } from '@x/auth';
import { DEFAULT_CUSTOMER } from '@x/emulator';
import { startEmulator, type RunningEmulator } from '@x/emulator/node';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { handleCallback, WebhookError, type CallbackPayload } from '../src/index.js';
import { traceCallbacks } from '../src/otel-entry.js';

const spans = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
const meterProvider = new MeterProvider({ readers: [reader] });

/** What the handler does with the next deliveries: succeed, or throw once. */
let failNext = 0;
const handled: CallbackPayload[] = [];
const sends = new Map<string, SpanContext>();
let lookupFails = false;
let lookupStalls = false;
const handler = traceCallbacks(
  async (payload: CallbackPayload) => {
    if (failNext > 0) {
      failNext--;
      throw Object.assign(new Error(`database down for ${JSON.stringify(payload)}`), { code: 'db_unavailable' });
    }
    handled.push(payload);
  },
  {
    tracerProvider,
    meterProvider,
    sendSpan: (referenceId) => {
      if (lookupFails) throw new Error('store down');
      if (lookupStalls) return new Promise<SpanContext>(() => undefined);
      return sends.get(referenceId);
    },
  },
);

let receiver: Server;
let server: RunningEmulator;
const replayStore = createMemoryReplayStore();
beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      try {
        const result = await handleCallback({ body: new Uint8Array(Buffer.concat(chunks)), headers: req.headers as Record<string, string> }, { ...DEFAULT_CUSTOMER, replayStore }, handler);
        res.writeHead(result.ok ? 200 : result.answer.status).end();
      } catch {
        res.writeHead(500).end(); // the handler failed: the service retries
      }
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/callbacks`;
  server = await startEmulator({ customers: [{ ...DEFAULT_CUSTOMER, callbackUrl }], deliveryDelayMs: 20, callbacks: { retryDelaysMs: [10, 20] } });
});
afterAll(async () => {
  await server.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
  await tracerProvider.shutdown();
  await meterProvider.shutdown();
});
beforeEach(() => {
  spans.reset();
  handled.length = 0;
});

/** A signed form POST to the emulator; its JSON answer. */
async function post(path: string, form: Record<string, string>): Promise<{ reference_id: string }> {
  const url = new URL(path, server.url);
  const body = new URLSearchParams(form).toString();
  const { headers } = signRequest({ method: 'POST', url, contentType: 'application/x-www-form-urlencoded', body }, DEFAULT_CUSTOMER);
  const response = await fetch(url, { method: 'POST', headers, body });
  expect(response.status).toBe(200);
  return (await response.json()) as { reference_id: string };
}

async function metric(name: string) {
  metricExporter.reset();
  await reader.forceFlush();
  return metricExporter.getMetrics().at(-1)!.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === name);
}

describe('traceCallbacks', () => {
  it('an SMS delivery: a CONSUMER span with kind, reference id, status code and the send-to-delivery latency from the payload', async () => {
    const sent = await post('/v1/messaging', { phone_number: '15555550150', message: 'Your parcel ships today', message_type: 'ARN' });
    await server.emulator.idle();
    expect(handled).toHaveLength(1);
    const payload = handled[0]! as CallbackPayload & { submit_timestamp: string; status: { updated_on: string } };
    const [span, ...others] = spans.getFinishedSpans();
    expect(others).toEqual([]);
    expect(span!.name).toBe('callback sms_status');
    expect(span!.kind).toBe(4); // SpanKind.CONSUMER
    expect(span!.attributes).toEqual({
      'x.callback.kind': 'sms_status',
      'x.reference_id': sent.reference_id,
      'x.status_code': 200,
      'x.delivery.latency_ms': Date.parse(payload.status.updated_on) - Date.parse(payload.submit_timestamp),
    });
    expect(span!.links).toEqual([]);
    const latency = await metric('x.callback.delivery_latency');
    const point = latency!.dataPoints.find((p) => p.attributes['x.callback.kind'] === 'sms_status')!;
    expect((point.value as { count: number }).count).toBe(1);
  });

  it('linked to the send when sendSpan knows its span context; a failing lookup costs the link, not the delivery', async () => {
    const send: SpanContext = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: 1 };
    const sent = await post('/v1/messaging', { phone_number: '15555550151', message: 'Hello', message_type: 'ARN' });
    sends.set(sent.reference_id, send);
    await server.emulator.idle();
    expect(spans.getFinishedSpans()[0]!.links).toEqual([{ context: send, attributes: { 'x.reference_id': sent.reference_id } }]);
    spans.reset();
    lookupFails = true;
    try {
      const again = await post('/v1/messaging', { phone_number: '15555550152', message: 'Hello', message_type: 'ARN' });
      sends.set(again.reference_id, send);
      await server.emulator.idle();
    } finally {
      lookupFails = false;
    }
    expect(spans.getFinishedSpans()[0]!.links).toEqual([]);
    expect(handled).toHaveLength(2);
  });

  it('a handler that fails: an error span (error.type from the code, not the message), then the retry is processed and its latency recorded once', async () => {
    const before = ((await metric('x.callback.delivery_latency'))!.dataPoints.find((p) => p.attributes['x.callback.kind'] === 'sms_status')!.value as { count: number }).count;
    failNext = 1;
    await post('/v1/messaging', { phone_number: '15555550153', message: 'Hello', message_type: 'ARN' });
    await server.emulator.idle();
    const [failed, processed] = spans.getFinishedSpans();
    expect(failed!.status).toEqual({ code: SpanStatusCode.ERROR, message: 'db_unavailable' });
    expect(failed!.attributes['error.type']).toBe('db_unavailable');
    expect(processed!.status.code).toBe(SpanStatusCode.UNSET);
    expect(handled).toHaveLength(1);
    const latency = (await metric('x.callback.delivery_latency'))!.dataPoints.find((p) => p.attributes['x.callback.kind'] === 'sms_status')!;
    expect((latency.value as { count: number }).count).toBe(before + 1);
    const deliveries = (await metric('x.callback.deliveries'))!.dataPoints;
    expect(deliveries.find((p) => p.attributes['error.type'] === 'db_unavailable')?.value).toBe(1);
  });

  it('a sendSpan lookup that never answers is given up after sendSpanTimeoutMs: the delivery is handled, its span unlinked and marked', async () => {
    const stalled = traceCallbacks(async (payload: CallbackPayload) => void handled.push(payload), { tracerProvider, meterProvider, sendSpan: () => new Promise<SpanContext>(() => undefined), sendSpanTimeoutMs: 50 });
    await stalled({ reference_id: 'C'.repeat(32), state: 'VERIFIED' } as never);
    expect(handled).toHaveLength(1);
    const [span] = spans.getFinishedSpans();
    expect(span!.links).toEqual([]);
    expect(span!.attributes['x.send_span.lookup']).toBe('timeout');
  });

  it('through the emulator, with the default limit (1.5 s): a store that never answers does not hold the delivery; a failed lookup is marked failed', async () => {
    lookupStalls = true;
    try {
      const sent = await post('/v1/messaging', { phone_number: '15555550156', message: 'Hello', message_type: 'ARN' });
      await server.emulator.idle();
      expect(handled.map((p) => p.reference_id)).toEqual([sent.reference_id]);
      expect(server.emulator.callbacks.attempts.filter((a) => a.referenceId === sent.reference_id).map((a) => a.status)).toEqual([200]);
    } finally {
      lookupStalls = false;
    }
    expect(spans.getFinishedSpans()[0]!.attributes['x.send_span.lookup']).toBe('timeout');
    expect(spans.getFinishedSpans()[0]!.links).toEqual([]);
    spans.reset();
    const failing = traceCallbacks(async () => 'done', { tracerProvider, meterProvider, sendSpan: () => Promise.reject(new Error('store down')) });
    expect(await failing({ reference_id: 'E'.repeat(32), state: 'VERIFIED' } as never)).toBe('done');
    expect(spans.getFinishedSpans()[0]!.attributes['x.send_span.lookup']).toBe('failed');
  }, 15_000);

  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY, '2000'])('a sendSpanTimeoutMs of %s is refused at creation (invalid_option)', (value) => {
    expect(() => traceCallbacks(async () => undefined, { sendSpan: () => undefined, sendSpanTimeoutMs: value as number })).toThrow(expect.objectContaining({ name: 'WebhookError', code: 'invalid_option' }));
    expect(() => traceCallbacks(async () => undefined, { sendSpanTimeoutMs: value as number })).toThrow(WebhookError);
  });

  it('a Verify API callback: its state, and the latency from created_on to updated_on (either date format)', async () => {
    await handler({ reference_id: 'A'.repeat(32), state: 'VERIFIED', created_on: 'Thu, 01 Jan 2026 12:00:00 GMT', updated_on: '2026-01-01T12:00:42.500Z' } as never);
    const [span] = spans.getFinishedSpans();
    expect(span!.attributes).toEqual({ 'x.callback.kind': 'verify_api', 'x.reference_id': 'A'.repeat(32), 'x.callback.state': 'VERIFIED', 'x.delivery.latency_ms': 42_500 });
  });

  it('a verification callback: no code, message text or phone number in any attribute', async () => {
    const code = '604918';
    const sent = await post('/v1/verify/sms', { phone_number: '15555550154', verify_code: code, template: 'Your code: $$CODE$$' });
    const url = new URL(`/v1/verify/${sent.reference_id}?verify_code=${code}`, server.url);
    await fetch(url, { headers: signRequest({ method: 'GET', url }, DEFAULT_CUSTOMER).headers });
    await server.emulator.idle();
    const [span] = spans.getFinishedSpans();
    expect(span!.name).toBe('callback verify_sms');
    const all: Attributes[] = [span!.attributes, ...span!.links.map((l) => l.attributes ?? {})];
    const values = all.flatMap((a) => Object.entries(a).map(([k, v]) => `${k}=${String(v)}`));
    for (const secret of [code, 'Your code', '15555550154', DEFAULT_CUSTOMER.apiKey]) expect(values.filter((v) => v.includes(secret)), secret).toEqual([]);
  });
});

// @x/client/otel against the real emulator on 127.0.0.1, recorded by the OpenTelemetry SDK's
// in-memory exporters: one span per call with the operation's name and template, the outcome
// (statuses, reference id, resend count, sent), retries as events, metrics per operation, and no
// secret (code, message text, key, Authorization) or whole phone number in any attribute.
import { context, SpanStatusCode, type Attributes, type SpanContext } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { DEFAULT_CUSTOMER } from '@x/emulator';
import { startEmulator, type RunningEmulator } from '@x/emulator/node';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient, type Client } from '../src/index.js';
import { instrument } from '../src/otel-entry.js';

const spans = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
const meterProvider = new MeterProvider({ readers: [reader] });
const contextManager = new AsyncLocalStorageContextManager();

let server: RunningEmulator;
let client: Client;
const seen: number[] = [];
beforeAll(async () => {
  context.setGlobalContextManager(contextManager.enable());
  server = await startEmulator({ deliveryDelayMs: 5 });
  client = instrument(createClient, { ...DEFAULT_CUSTOMER, baseUrl: server.url, retry: { retries: 2, minDelayMs: 1, maxDelayMs: 5 }, hooks: { onRequest: (e) => seen.push(e.attempt) } }, { tracerProvider, meterProvider });
});
afterAll(async () => {
  await server.close();
  context.disable();
  await tracerProvider.shutdown();
  await meterProvider.shutdown();
});
beforeEach(() => {
  spans.reset();
  server.emulator.faults.clear();
});

const only = (): ReadableSpan => {
  const finished = spans.getFinishedSpans();
  expect(finished).toHaveLength(1);
  return finished[0]!;
};

/** Every attribute of every span, span event and metric data point, as text. */
async function everyAttribute(): Promise<string[]> {
  const out: string[] = [];
  const add = (attributes: Attributes) => {
    for (const [key, value] of Object.entries(attributes)) out.push(`${key}=${String(value)}`);
  };
  for (const span of spans.getFinishedSpans()) {
    out.push(span.name, span.status.message ?? '');
    add(span.attributes);
    for (const event of span.events) add(event.attributes ?? {});
  }
  for (const metric of (await collected()).flatMap((m) => m.scopeMetrics.flatMap((s) => s.metrics))) for (const point of metric.dataPoints as Array<{ attributes: Attributes }>) add(point.attributes);
  return out;
}

async function collected(): Promise<ResourceMetrics[]> {
  metricExporter.reset();
  await reader.forceFlush();
  return metricExporter.getMetrics();
}

/** The data points of one metric, by operation. */
async function points(name: string): Promise<Map<string, unknown>> {
  const metric = (await collected()).at(-1)!.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === name);
  return new Map((metric?.dataPoints ?? []).map((p) => [`${p.attributes['x.operation']}${p.attributes['error.type'] ? ` ${p.attributes['error.type']}` : ''}`, p.value]));
}

describe('@x/client/otel against the emulator', () => {
  it('a send: a CLIENT span named after the operation, with template, path, statuses, reference id, no resend, sent', async () => {
    const { data } = await client.messaging.send({ phoneNumber: '+1 555 555 0140', message: 'Your parcel ships today', messageType: 'ARN' });
    const span = only();
    expect(span.name).toBe('messaging.send');
    expect(span.kind).toBe(2); // SpanKind.CLIENT
    expect(span.attributes).toEqual({
      'x.operation': 'messaging.send',
      'http.request.method': 'POST',
      'url.template': '/v1/messaging',
      'url.path': '/v1/messaging',
      'server.address': '127.0.0.1',
      'server.port': Number(new URL(server.url).port),
      'http.response.status_code': 200,
      'x.status_code': 290,
      'x.reference_id': data.reference_id,
      'http.request.resend_count': 0,
      'x.sent': 'true',
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('ids in the path become placeholders: {reference_id}, {phone_number}; url.path masks the number as the log does', async () => {
    const { data } = await client.messaging.send({ phoneNumber: '15555550141', message: 'Hello', messageType: 'ARN' });
    spans.reset();
    await client.messaging.status(data.reference_id);
    await client.phoneId.standard('15555550142');
    const [status, phoneId] = spans.getFinishedSpans();
    expect(status!.attributes['url.template']).toBe('/v1/messaging/{reference_id}');
    expect(phoneId!.attributes['url.template']).toBe('/v1/phoneid/standard/{phone_number}');
    expect(phoneId!.attributes['url.path']).toBe('/v1/phoneid/standard/*******0142');
    expect(JSON.stringify([status!.attributes, phoneId!.attributes])).not.toContain('15555550142');
  });

  it('a retried call: the resend count, a retry event per wait, the retries counter', async () => {
    const before = (await points('x.client.retries')).get('phoneId.standard') ?? 0;
    server.emulator.faults.add({ type: 'status', status: 503, path: '/v1/phoneid/standard', times: 2 });
    await client.phoneId.standard('15555550143');
    const span = only();
    expect(span.attributes).toMatchObject({ 'http.request.resend_count': 2, 'http.response.status_code': 200, 'x.status_code': 300 });
    expect(span.events.map((e) => [e.name, e.attributes?.['x.attempt'], e.attributes?.['error.type']])).toEqual([
      ['retry', 1, 'api_error'],
      ['retry', 2, 'api_error'],
    ]);
    expect((await points('x.client.retries')).get('phoneId.standard')).toBe((before as number) + 2);
  });

  it('concurrent calls keep their own attempts (the active context, not a shared slot)', async () => {
    server.emulator.faults.add({ type: 'status', status: 503, path: '/v1/phoneid/standard/15555550144', times: 1 });
    await Promise.all([client.phoneId.standard('15555550144'), client.phoneId.standard('15555550145'), client.phoneId.standard('15555550146')]);
    const byPath = new Map(spans.getFinishedSpans().map((s) => [String(s.attributes['url.path']).slice(-4), s.attributes['http.request.resend_count']]));
    expect(byPath).toEqual(new Map([['0144', 1], ['0145', 0], ['0146', 0]]));
  });

  it('an answered error: error.type, HTTP and service codes, sent, status ERROR with the code only', async () => {
    await expect(client.messaging.status('0123456789ABCDEF0123456789ABCDEF')).rejects.toMatchObject({ status: 404 });
    const span = only();
    expect(span.attributes).toMatchObject({ 'error.type': 'api_error', 'http.response.status_code': 404, 'x.status_code': 10017, 'x.sent': 'true', 'http.request.resend_count': 0 });
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'api_error' });
  });

  it('refused before sending: sent false; a timed-out send: sent unknown', async () => {
    await expect(client.messaging.send({ phoneNumber: '12', message: 'x', messageType: 'ARN' })).rejects.toMatchObject({ code: 'validation_error' });
    expect(only().attributes).toMatchObject({ 'error.type': 'validation_error', 'x.sent': 'false' });
    expect(only().attributes['url.template']).toBeUndefined();
    spans.reset();
    server.emulator.faults.add({ type: 'latency', ms: 2_000, path: '/v1/messaging' });
    await expect(client.messaging.send({ phoneNumber: '15555550147', message: 'Hello', messageType: 'ARN' }, { timeoutMs: 200 })).rejects.toMatchObject({ code: 'timeout' });
    expect(only().attributes).toMatchObject({ 'error.type': 'timeout', 'x.sent': 'unknown', 'http.request.resend_count': 0 });
  });

  it('a listener that throws (onSend) does not fail the call', async () => {
    const throwing = instrument(createClient, { ...DEFAULT_CUSTOMER, baseUrl: server.url }, { tracerProvider, meterProvider, onSend: () => { throw new Error('store down'); } });
    const { data } = await throwing.messaging.send({ phoneNumber: '15555550139', message: 'Hello', messageType: 'ARN' });
    expect(only().attributes).toMatchObject({ 'x.reference_id': data.reference_id, 'x.sent': 'true' });
    expect(only().status.code).toBe(SpanStatusCode.UNSET);
  });

  it('counts calls and records their duration per operation and outcome; the caller\'s own hooks still run', async () => {
    const calls = await points('x.client.calls');
    const durations = await points('x.client.call.duration');
    expect(calls.get('messaging.send')).toBeGreaterThanOrEqual(2);
    expect(calls.get('messaging.status api_error')).toBe(1);
    expect(calls.get('messaging.send validation_error')).toBe(1);
    expect((durations.get('messaging.send') as { count: number }).count).toBe(calls.get('messaging.send'));
    expect(seen.length).toBeGreaterThan(0);
  });

  it('no code, message text, key, Authorization or whole phone number in any attribute (a verify.sms with a code, its check, an SMS)', async () => {
    spans.reset();
    const code = '918273';
    const text = 'Meet me at the north gate at nine';
    const { data } = await client.verify.sms({ phoneNumber: '15555550148', verifyCode: code, template: 'Your code: $$CODE$$' });
    await client.verify.check(data.reference_id, code);
    await client.messaging.send({ phoneNumber: '15555550149', message: text, messageType: 'ARN' });
    const all = await everyAttribute();
    expect(spans.getFinishedSpans().map((s) => s.name)).toEqual(['verify.sms', 'verify.check', 'messaging.send']);
    expect(all.find((a) => a.includes('verify.check'))).toBeDefined(); // the check itself is there...
    for (const secret of [code, text, 'north gate', 'Your code', DEFAULT_CUSTOMER.apiKey, 'TSA ', 'Basic ', '15555550148', '15555550149', '5550148', 'verify_code']) {
      expect(all.filter((a) => a.includes(secret)), secret).toEqual([]); // ...but never its code
    }
  });
});

describe('a send joined to its delivery callback (@x/webhooks/otel, built)', () => {
  it('the callback span links to the send span by reference id and carries the send-to-delivery latency', async () => {
    type Handler = (payload: { reference_id?: string }, ...rest: unknown[]) => Promise<unknown>;
    const webhooks = (await import(new URL('../../webhooks/dist/index.js', import.meta.url).href)) as { handleCallback: (input: unknown, options: unknown, handler: Handler) => Promise<{ ok: boolean; answer?: { status: number } }> };
    const { traceCallbacks } = (await import(new URL('../../webhooks/dist/otel.js', import.meta.url).href)) as { traceCallbacks: (h: Handler, o: unknown) => Handler };
    const sends = new Map<string, SpanContext>();
    const delivered: string[] = [];
    const handler = traceCallbacks(async (payload) => void delivered.push(payload.reference_id!), { tracerProvider, meterProvider, sendSpan: (id: string) => sends.get(id) });
    const receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const result = await webhooks.handleCallback({ body: new Uint8Array(Buffer.concat(chunks)), headers: req.headers }, DEFAULT_CUSTOMER, handler).catch(() => ({ ok: false, answer: { status: 500 } }));
        res.writeHead(result.ok ? 200 : result.answer!.status).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/callbacks`;
    const emulator = await startEmulator({ customers: [{ ...DEFAULT_CUSTOMER, callbackUrl }], deliveryDelayMs: 20 });
    try {
      const client = instrument(createClient, { ...DEFAULT_CUSTOMER, baseUrl: emulator.url }, { tracerProvider, meterProvider, onSend: ({ referenceId, spanContext }) => sends.set(referenceId, spanContext) });
      const { data } = await client.messaging.send({ phoneNumber: '15555550155', message: 'Your parcel ships today', messageType: 'ARN' });
      await emulator.emulator.idle();
      expect(delivered).toEqual([data.reference_id]);
      const send = spans.getFinishedSpans().find((s) => s.name === 'messaging.send' && s.attributes['x.reference_id'] === data.reference_id)!;
      const callback = spans.getFinishedSpans().find((s) => s.name === 'callback sms_status')!;
      expect(callback.attributes['x.reference_id']).toBe(data.reference_id);
      expect(callback.links.map((l) => l.context)).toEqual([send.spanContext()]);
      expect(callback.attributes['x.delivery.latency_ms']).toEqual(expect.any(Number));
    } finally {
      await emulator.close();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });
});

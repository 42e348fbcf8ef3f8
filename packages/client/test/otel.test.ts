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
import fc from 'fast-check';
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

/**
 * Every attribute of every span, span event and metric data point, as text. With `strings`: only
 * string values, without the answer's `x.reference_id`, `server.address` and `url.full`'s origin
 * (the emulator's address), so that what is left is what the request's path and options made.
 */
async function everyAttribute({ strings = false } = {}): Promise<string[]> {
  const out: string[] = [];
  const skip = new Set(strings ? ['x.reference_id', 'server.address'] : []);
  const add = (attributes: Attributes) => {
    for (const [key, value] of Object.entries(attributes)) {
      if (skip.has(key) || (strings && typeof value !== 'string')) continue;
      out.push(`${key}=${strings ? String(value).replace(server.url, "") : String(value)}`);
    }
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

/** The points of http.client.request.duration: count by attributes (as JSON). */
async function httpPoints(): Promise<Map<string, number>> {
  const metric = (await collected()).at(-1)!.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === 'http.client.request.duration');
  return new Map((metric?.dataPoints ?? []).map((p) => [JSON.stringify(p.attributes), (p.value as { count: number }).count]));
}

/** Every substring of `text` of `length` characters. */
const windows = (text: string, length: number): string[] => Array.from({ length: text.length - length + 1 }, (_, i) => text.slice(i, i + length));

/** The data points of one metric, by operation. */
async function points(name: string): Promise<Map<string, unknown>> {
  const metric = (await collected()).at(-1)!.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === name);
  return new Map((metric?.dataPoints ?? []).map((p) => [`${p.attributes['x.operation']}${p.attributes['error.type'] ? ` ${p.attributes['error.type']}` : ''}`, p.value]));
}

describe('@x/client/otel against the emulator', () => {
  it('a send: a CLIENT span named after the operation, with the stable HTTP client attributes (url.full, no url.path, no resend count on a first attempt), reference id, sent', async () => {
    const { data } = await client.messaging.send({ phoneNumber: '+1 555 555 0140', message: 'Your parcel ships today', messageType: 'ARN' });
    const span = only();
    expect(span.name).toBe('messaging.send');
    expect(span.kind).toBe(2); // SpanKind.CLIENT
    expect(span.attributes).toEqual({
      'x.operation': 'messaging.send',
      'http.request.method': 'POST',
      'url.template': '/v1/messaging',
      'url.full': `${server.url}/v1/messaging`,
      'server.address': '127.0.0.1',
      'server.port': Number(new URL(server.url).port),
      'http.response.status_code': 200,
      'x.status_code': 290,
      'x.reference_id': data.reference_id,
      'x.sent': 'true',
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('ids in the path become placeholders: {reference_id}, {phone_number}, in url.template and url.full', async () => {
    const { data } = await client.messaging.send({ phoneNumber: '15555550141', message: 'Hello', messageType: 'ARN' });
    spans.reset();
    await client.messaging.status(data.reference_id);
    await client.phoneId.standard('15555550142');
    const [status, phoneId] = spans.getFinishedSpans();
    expect(status!.attributes['url.template']).toBe('/v1/messaging/{reference_id}');
    expect(phoneId!.attributes['url.template']).toBe('/v1/phoneid/standard/{phone_number}');
    expect(phoneId!.attributes['url.full']).toBe(`${server.url}/v1/phoneid/standard/{phone_number}`);
    expect(JSON.stringify([status!.attributes, phoneId!.attributes])).not.toContain('15555550142');
  });

  it('a retried call: the resend count, a retry event per wait, the retries counter', async () => {
    const before = (await points('x.client.retries')).get('phoneId.standard') ?? 0;
    server.emulator.faults.add({ type: 'status', status: 503, path: '/v1/phoneid/standard', times: 2 });
    await client.phoneId.standard('15555550143');
    const span = only();
    expect(span.attributes).toMatchObject({ 'http.request.resend_count': 2, 'http.response.status_code': 200, 'x.status_code': 300 });
    expect(span.events.map((e) => [e.name, e.attributes?.['x.attempt'], e.attributes?.['error.type']])).toEqual([
      ['retry', 1, '503'],
      ['retry', 2, '503'],
    ]);
    expect((await points('x.client.retries')).get('phoneId.standard')).toBe((before as number) + 2);
  });

  it('concurrent calls keep their own attempts (the active context, not a shared slot)', async () => {
    server.emulator.faults.add({ type: 'status', status: 503, path: '/v1/phoneid/standard/15555550144', times: 1 });
    const answers = await Promise.all([client.phoneId.standard('15555550144'), client.phoneId.standard('15555550145'), client.phoneId.standard('15555550146')]);
    const resends = new Map(spans.getFinishedSpans().map((s) => [s.attributes['x.reference_id'], s.attributes['http.request.resend_count']]));
    expect(answers.map((a) => resends.get(a.data.reference_id))).toEqual([1, undefined, undefined]);
  });

  it('an answered error: error.type is the status code (as the HTTP conventions say), HTTP and service codes, sent false (refused), status ERROR with no message text', async () => {
    await expect(client.messaging.status('0123456789ABCDEF0123456789ABCDEF')).rejects.toMatchObject({ status: 404 });
    const span = only();
    expect(span.attributes).toMatchObject({ 'error.type': '404', 'http.response.status_code': 404, 'x.status_code': 10017, 'x.sent': 'false' });
    expect(span.attributes['http.request.resend_count']).toBeUndefined();
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: '404' });
  });

  it('sent is true only when the service accepted the request: a 500 to a send is unknown (it may have gone), a 4xx false', async () => {
    server.emulator.faults.add({ type: 'status', status: 500, path: '/v1/messaging', times: 1 });
    await expect(client.messaging.send({ phoneNumber: '15555550130', message: 'Hello', messageType: 'ARN' })).rejects.toMatchObject({ status: 500 });
    expect(only().attributes).toMatchObject({ 'x.sent': 'unknown', 'http.response.status_code': 500, 'error.type': '500' });
    spans.reset();
    await expect(client.request({ method: 'POST', path: '/v1/messaging', form: { phone_number: '15555550131', message_type: 'ARN' } })).rejects.toMatchObject({ status: 400 });
    expect(only().attributes).toMatchObject({ 'x.sent': 'false', 'http.response.status_code': 400, 'error.type': '400' });
  });

  it('refused before sending: sent false; a timed-out send: sent unknown', async () => {
    await expect(client.messaging.send({ phoneNumber: '12', message: 'x', messageType: 'ARN' })).rejects.toMatchObject({ code: 'validation_error' });
    expect(only().attributes).toMatchObject({ 'error.type': 'validation_error', 'x.sent': 'false' });
    expect(only().attributes['url.template']).toBeUndefined();
    spans.reset();
    server.emulator.faults.add({ type: 'latency', ms: 2_000, path: '/v1/messaging' });
    await expect(client.messaging.send({ phoneNumber: '15555550147', message: 'Hello', messageType: 'ARN' }, { timeoutMs: 200 })).rejects.toMatchObject({ code: 'timeout' });
    expect(only().attributes).toMatchObject({ 'error.type': 'timeout', 'x.sent': 'unknown' });
    expect(only().attributes['http.request.resend_count']).toBeUndefined();
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
    expect(calls.get('messaging.status 404')).toBe(1);
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

  it('http.client.request.duration: one point per attempt, in seconds, with the conventional attributes (method, server, status code or error.type, url.template)', async () => {
    const before = await httpPoints();
    server.emulator.faults.add({ type: 'status', status: 503, path: '/v1/phoneid/standard', times: 1 });
    await client.phoneId.standard('15555550132');
    const after = await httpPoints();
    const port = Number(new URL(server.url).port);
    const base = { 'http.request.method': 'GET', 'server.address': '127.0.0.1', 'server.port': port, 'url.template': '/v1/phoneid/standard/{phone_number}' };
    const ok = JSON.stringify({ ...base, 'http.response.status_code': 200 });
    const failed = JSON.stringify({ ...base, 'http.response.status_code': 503, 'error.type': '503' });
    expect((after.get(ok) ?? 0) - (before.get(ok) ?? 0)).toBe(1);
    expect((after.get(failed) ?? 0) - (before.get(failed) ?? 0)).toBe(1);
    const metric = (await collected()).at(-1)!.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === 'http.client.request.duration')!;
    expect(metric.descriptor.unit).toBe('s');
  });

  it('a method outside the HTTP ones is _OTHER, with the original beside it; request() spans are named "METHOD template"', async () => {
    await client.request({ method: 'GET', path: '/v1/phoneid/standard/%2B1%20555%20555%200133' }).catch(() => undefined);
    expect(only().name).toBe('GET /v1/phoneid/standard/{phone_number}');
    spans.reset();
    await client.request({ method: 'PROPFIND', path: '/v1/messaging' }).catch(() => undefined);
    expect(only().attributes).toMatchObject({ 'http.request.method': '_OTHER', 'http.request.method_original': 'PROPFIND' });
    expect(only().name).toBe('HTTP /v1/messaging');
  });

  it('onSend hears only the operations that create a transaction, with the operation; look-ups and checks are not sends', async () => {
    const heard: string[] = [];
    const listening = instrument(createClient, { ...DEFAULT_CUSTOMER, baseUrl: server.url }, { tracerProvider, meterProvider, onSend: ({ operation }) => void heard.push(operation) });
    const { data: sms } = await listening.messaging.send({ phoneNumber: '15555550134', message: 'Hello', messageType: 'ARN' });
    await listening.messaging.status(sms.reference_id);
    const { data: verification } = await listening.verify.sms({ phoneNumber: '15555550135', verifyCode: '12345' });
    await listening.verify.status(verification.reference_id);
    await listening.verify.check(verification.reference_id, '12345');
    await listening.voice.call({ phoneNumber: '15555550136', message: 'Hello', messageType: 'ARN' });
    await listening.phoneId.standard('15555550137');
    await listening.request({ method: 'GET', path: `/v1/messaging/${sms.reference_id}` });
    expect(heard).toEqual(['messaging.send', 'verify.sms', 'voice.call']);
  });

  it('property: whatever the spelling of a phone number, reference id or email in a path, none of it reaches a span name, url.template, url.full or a metric attribute', async () => {
    const hex = (c: string, upper: boolean) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')[upper ? 'toUpperCase' : 'toLowerCase']()}`;
    /** Each character as it is, or percent-encoded (upper or lower hex); some characters must be encoded to be sent. */
    const spell = (text: string, must: RegExp = /[^A-Za-z0-9\-._~!$&'()*+,;=:@]/) =>
      fc.array(fc.tuple(fc.boolean(), fc.boolean()), { minLength: text.length, maxLength: text.length }).map((choices) => [...text].map((c, i) => (must.test(c) || choices[i]![0] ? hex(c, choices[i]![1]) : c)).join(''));
    const phone = fc.tuple(fc.integer({ min: 1, max: 9 }), fc.stringMatching(/^\d{7,14}$/), fc.constantFrom('', '+', '00'), fc.constantFrom('', ' ', '-', '.', '(', ')')).chain(([first, rest, prefix, separator]) => {
      const digits = `${first}${rest}`;
      const grouped = digits.replace(/(\d{3})(?=\d)/g, `$1${separator}`);
      return spell(`${prefix}${grouped}`).map((segment) => ({ segment, secrets: windows(digits, 4) }));
    });
    const reference = fc.tuple(fc.stringMatching(/^[0-9a-f]{32}$/), fc.boolean(), fc.boolean()).chain(([id, upper, dashed]) => {
      const text = upper ? id.toUpperCase() : id;
      const shaped = dashed ? `${text.slice(0, 8)}-${text.slice(8, 12)}-${text.slice(12, 16)}-${text.slice(16, 20)}-${text.slice(20)}` : text;
      return spell(shaped).map((segment) => ({ segment, secrets: windows(id, 8) }));
    });
    const email = fc.tuple(fc.stringMatching(/^[a-z0-9]{6,12}$/), fc.stringMatching(/^[a-z]{6,10}$/), fc.boolean()).chain(([local, domain, escapeAt]) =>
      spell(`${local}@${domain}.com`, escapeAt ? /@/ : /[^A-Za-z0-9\-._~!$&'()*+,;=:@]/).map((segment) => ({ segment, secrets: [local, domain, '@', '%40'] })),
    );
    const prefix = fc.constantFrom('/v1/phoneid/standard/', '/v1/messaging/', '/v1/verify/', '/intelligence/email/', '/v1/score/', '/v2/lookup/');
    await fc.assert(
      fc.asyncProperty(prefix, fc.oneof(phone, reference, email), async (path, { segment, secrets }) => {
        spans.reset();
        await client.request({ method: 'GET', path: `${path}${segment}`, retry: false }).catch(() => undefined);
        const texts = (await everyAttribute({ strings: true })).map((t) => t.toLowerCase());
        for (const text of texts) {
          const digits = text.replace(/\D/g, '');
          for (const secret of secrets) {
            const needle = secret.toLowerCase();
            expect(/^\d+$/.test(needle) ? digits.includes(needle) : text.includes(needle), `${secret} in ${text} (path ${path}${segment})`).toBe(false);
          }
        }
      }),
      { numRuns: 60 },
    );
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

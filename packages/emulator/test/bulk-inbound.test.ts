// Bulk SMS (fan-out to the outbox, one signed callback per recipient), inbound SMS (MO) sent on
// request in-process and over the control route, and the Voice Verify callback.
import { callbackSignature } from '@x/auth';
import { timingSafeEqual } from '@x/auth/protocol';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEmulator, EmulatorError } from '../src/index.js';
import { startEmulator, type RunningEmulator } from '../src/node.js';
import { call, customer, local, startCallbackRecorder } from './helpers.js';

let recorder: Awaited<ReturnType<typeof startCallbackRecorder>>;
let received: typeof recorder.received;
let callbackUrl: string;
let server: RunningEmulator;

beforeAll(async () => {
  recorder = await startCallbackRecorder();
  ({ received, url: callbackUrl } = recorder);
  server = await startEmulator({ customers: [{ ...customer, callbackUrl }], deliveryDelayMs: 10, callbacks: { retryDelaysMs: [10, 10] } });
});
afterAll(async () => {
  await server.close();
  await recorder.close();
});
// A test that does not wait for its own callbacks must not leak them into the next one.
beforeEach(async () => {
  await server.emulator.idle();
  received.length = 0;
});

const signedBy = (r: { body: string; headers: Record<string, string | string[] | undefined> }) =>
  r.headers.authorization === `TSA ${customer.customerId}:${callbackSignature(r.body, customer.apiKey)}` && timingSafeEqual(String(r.headers['x-ts-authorization']), callbackSignature(r.body, customer.apiKey));

describe('POST /v1/verify/bulk_sms', () => {
  it('answers 293, puts one message per recipient in the outbox, and sends one signed callback per recipient', async () => {
    const r = await call(server.url, 'POST', '/v1/verify/bulk_sms', { form: { recipients: '15555550700:alice,15555550001:bob,15555550702', template: 'Sale today', session_id: 'campaign-7' } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ sub_resource: 'bulk_sms', errors: [], status: { code: 293, description: 'Bulk request accepted' } });
    const id = r.body.reference_id;
    expect(server.emulator.outbox.list().filter((m) => m.referenceId === id).map((m) => [m.phoneNumber, m.recipientId, m.text])).toEqual([
      ['15555550700', 'alice', 'Sale today'],
      ['15555550001', 'bob', 'Sale today'],
      ['15555550702', undefined, 'Sale today'],
    ]);
    await server.emulator.idle();
    expect(received).toHaveLength(3);
    expect(received.every(signedBy)).toBe(true);
    const payloads = received.map((x) => JSON.parse(x.body)).sort((a, b) => a.session_id.localeCompare(b.session_id));
    expect(payloads.map((p) => [p.reference_id, p.sub_resource, p.session_id, p.status.code, p.status.description])).toEqual([
      [id, 'bulk_sms', 'alice', 200, 'Delivered to handset'],
      [id, 'bulk_sms', 'bob', 207, 'Error delivering SMS to handset (reason unknown)'],
      [id, 'bulk_sms', 'campaign-7', 200, 'Delivered to handset'],
    ]);
    // Each recipient's update has its own time.
    expect(new Set(payloads.map((p) => p.status.updated_on)).size).toBe(3);
  });

  it('session_id is null when neither the recipient nor the request has an id', async () => {
    await call(server.url, 'POST', '/v1/verify/bulk_sms', { form: { recipients: '15555550703', template: 'x' } });
    await server.emulator.idle();
    expect(JSON.parse(received[0]!.body).session_id).toBeNull();
  });

  it.each([
    [{ template: 'x' }, 'recipients'],
    [{ recipients: '15555550700' }, 'template'],
    [{ recipients: '15555550700,abc', template: 'x' }, 'entry 2'],
    [{ recipients: '15555550700:', template: 'x' }, 'id'],
    [{ recipients: Array.from({ length: 1001 }, (_, i) => `1555555${String(i).padStart(4, '0')}`).join(','), template: 'x' }, '1000'],
    [{ recipients: '15555550700', template: 'x', ucid: 'NOPE' }, 'ucid'],
  ])('400 -10001 for %#, naming %s; nothing sent', async (form, mention) => {
    const before = server.emulator.outbox.list().length;
    const r = await call(server.url, 'POST', '/v1/verify/bulk_sms', { form: form as Record<string, string> });
    expect(r.status).toBe(400);
    expect(r.body.errors[0]).toMatchObject({ code: -10001, description: expect.stringContaining(mention) });
    expect(server.emulator.outbox.list().length).toBe(before);
  });

  it('has no status endpoint (the bulk id is unknown to GET /v1/verify/{id}); GET /v1/verify/bulk_sms is 405', async () => {
    const r = await call(server.url, 'POST', '/v1/verify/bulk_sms', { form: { recipients: '15555550704', template: 'x' } });
    expect((await call(server.url, 'GET', `/v1/verify/${r.body.reference_id}`)).status).toBe(404);
    expect((await call(server.url, 'GET', '/v1/verify/bulk_sms')).status).toBe(405);
    // Its callback is delivered here, not during the next test.
    await server.emulator.idle();
  });
});

describe('Voice Verify callback', () => {
  it('at the final call status: sub_resource call, 1xx status, verify and submit_timestamp, signed', async () => {
    const r = await call(server.url, 'POST', '/v1/verify/call', { form: { phone_number: '15555550006' } });
    await server.emulator.idle();
    expect(received).toHaveLength(1);
    expect(signedBy(received[0]!)).toBe(true);
    expect(JSON.parse(received[0]!.body)).toMatchObject({ reference_id: r.body.reference_id, sub_resource: 'call', status: { code: 107, description: 'Line busy' }, verify: { code_state: 'UNKNOWN', code_entered: null }, errors: [] });
  });
});

describe('inbound SMS (MO)', () => {
  it('emulator.inbound() sends a signed mo_sms callback with user_response', async () => {
    const sent = server.emulator.inbound({ from: '+15555550800', to: '15555559999', text: 'STOP' });
    expect(sent.referenceId).toMatch(/^[0-9A-F]{32}$/);
    expect(sent.callbackUrl).toBe(callbackUrl);
    await server.emulator.idle();
    expect(received).toHaveLength(1);
    expect(signedBy(received[0]!)).toBe(true);
    expect(JSON.parse(received[0]!.body)).toEqual({
      status: { code: 1500, description: 'Delivered to customer', updated_on: expect.stringMatching(/Z$/) },
      submit_timestamp: expect.any(String),
      errors: [],
      user_response: { phone_number: '15555550800', sender_id: '15555559999', mo_message: 'STOP' },
      sub_resource: 'mo_sms',
      reference_id: sent.referenceId,
    });
  });

  it('POST /_emulator/inbound does the same over HTTP (202), with snake_case fields', async () => {
    const r = await fetch(`${server.url}/_emulator/inbound`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ from: '15555550801', to: '12345', text: 'HELP', customer_id: customer.customerId }) });
    expect(r.status).toBe(202);
    const body = await r.json();
    await server.emulator.idle();
    expect(JSON.parse(received[0]!.body)).toMatchObject({ reference_id: body.reference_id, user_response: { mo_message: 'HELP', sender_id: '12345' } });
  });

  it('is retried like every callback when the receiver fails', async () => {
    const failing = createServer((_req, res) => res.writeHead(500).end());
    await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(failing.address() as AddressInfo).port}/mo`;
    const sent = server.emulator.inbound({ from: '15555550802', to: '15555559999', text: 'hi', callbackUrl: url });
    await server.emulator.idle();
    expect(server.emulator.callbacks.attempts.filter((a) => a.referenceId === sent.referenceId).map((a) => [a.attempt, a.status])).toEqual([[1, 500], [2, 500], [3, 500]]);
    await new Promise<void>((resolve) => failing.close(() => resolve()));
  });

  it.each([
    [{ to: '15555559999', text: 'x' }, 'from'],
    [{ from: '15555550800', text: 'x' }, 'to'],
    [{ from: '15555550800', to: '15555559999', text: '' }, 'text'],
    [{ from: '15555550800', to: '15555559999', text: 'x', customerId: 'nobody' }, 'customerId'],
    [{ from: '15555550800', to: '15555559999', text: 'x', callbackUrl: 'ftp://x' }, 'callbackUrl'],
  ])('bad input throws an EmulatorError naming the field (%#: %s); over HTTP 400 with the field', async (message, field) => {
    expect(() => server.emulator.inbound(message as never)).toThrow(expect.objectContaining({ code: 'invalid_inbound', field }));
    const r = await fetch(`${server.url}/_emulator/inbound`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(message) });
    expect(r.status).toBe(400);
    expect(await r.json()).toMatchObject({ code: 'invalid_inbound', field });
  });

  it('without a callback URL for the account: an error that says where to set one', async () => {
    const bare = createEmulator();
    let error: unknown;
    try {
      bare.inbound({ from: '15555550800', to: '15555559999', text: 'x' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EmulatorError);
    expect((error as Error).message).toMatch(/callbackUrl/);
    bare.close();
  });

  it('the control route is guarded like the others (a foreign Origin is refused)', async () => {
    const r = await fetch(`${server.url}/_emulator/inbound`, { method: 'POST', headers: { 'content-type': 'application/json', origin: 'https://evil.example' }, body: JSON.stringify({ from: '15555550800', to: '15555559999', text: 'x' }) });
    expect(r.status).toBe(403);
  });

  it('in-process, the inbound route needs no Host check', async () => {
    const emulator = createEmulator({ customers: [{ ...customer, callbackUrl }] });
    const r = await emulator.fetch('http://anything.example/_emulator/inbound', { method: 'POST', body: JSON.stringify({ from: '15555550803', to: '15555559999', text: 'yo' }) });
    expect(r.status).toBe(202);
    await emulator.idle();
    expect(received.map((x) => JSON.parse(x.body).user_response.mo_message)).toEqual(['yo']);
    emulator.close();
    expect((await local(createEmulator(), 'GET', '/v1/verify/0123456789ABCDEF0123456789ABCDEF')).status).toBe(404);
  });
});

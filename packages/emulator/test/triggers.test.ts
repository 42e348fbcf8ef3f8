// Item 3: triggers and time over HTTP and in-process: transactions and their final status, the
// clock (codes expire, deliveries settle, callbacks and retries fire), callback re-send, waitFor.
import { callbackSignature } from '@x/auth';
import { sha256Hex } from '@x/auth/protocol';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEmulator, EmulatorError, type CallbackView, type TransactionView } from '../src/index.js';
import { startEmulator, type RunningEmulator } from '../src/node.js';
import { call, startCallbackRecorder, customer, local, type Received } from './helpers.js';

const received: Received[] = [];
let failNext = 0;
let receiver: Awaited<ReturnType<typeof startCallbackRecorder>>;
let callbackUrl: string;

beforeAll(async () => {
  receiver = await startCallbackRecorder({ received, status: () => (failNext > 0 ? (failNext--, 503) : 204) });
  callbackUrl = receiver.url;
});
afterAll(() => receiver.close());
beforeEach(() => {
  received.length = 0;
  failNext = 0;
});

const sms = (phone_number: string) => ({ phone_number, message: 'hello', message_type: 'ARN' });
const post = (url: string, body: unknown) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('over HTTP', () => {
  let server: RunningEmulator;
  // A minute to deliver: nothing settles unless the clock is moved (or a status is set).
  beforeAll(async () => {
    server = await startEmulator({ customers: [{ ...customer, callbackUrl }], deliveryDelayMs: 60_000 });
  });
  afterAll(() => server.close());
  afterEach(() => server.emulator.reset());

  it('GET /_emulator/transactions lists transactions, filtered by number (any format) and kind', async () => {
    const sent = await call(server.url, 'POST', '/v1/messaging', { form: sms('15555551234') });
    await call(server.url, 'POST', '/v1/voice', { form: sms('15555551234') });
    await call(server.url, 'POST', '/v1/messaging', { form: sms('15555550300') });
    const response = await fetch(`${server.url}/_emulator/transactions?phone_number=${encodeURIComponent('+1 555 555 1234')}&kind=sms`);
    expect(response.status).toBe(200);
    const { transactions } = (await response.json()) as { transactions: TransactionView[] };
    expect(transactions).toHaveLength(1);
    expect(transactions[0]).toMatchObject({
      referenceId: sent.body.reference_id,
      kind: 'sms',
      phoneNumber: '15555551234',
      customerId: customer.customerId,
      status: { code: 290, description: 'Message in progress' },
      history: [{ code: 290 }],
      final: false,
      callbackUrl,
    });
    expect((await fetch(`${server.url}/_emulator/transactions?kind=fax`)).status).toBe(400);
  });

  it('POST /_emulator/transactions/{id}/status sets the final status now and sends the callback (once)', async () => {
    const sent = await call(server.url, 'POST', '/v1/messaging', { form: sms('15555550301') });
    const id = sent.body.reference_id as string;
    const response = await post(`${server.url}/_emulator/transactions/${id}/status`, { code: 207 });
    expect(response.status).toBe(200);
    const { transaction } = (await response.json()) as { transaction: TransactionView };
    expect(transaction).toMatchObject({ referenceId: id, status: { code: 207 }, final: true });
    expect(transaction.history.map((h) => h.code)).toEqual([290, 207]);
    await server.emulator.idle();
    expect(received.map((r) => JSON.parse(r.body).status.code)).toEqual([207]);
    // The delivery the emulator had planned does not come afterwards.
    await server.emulator.clock.advance(120_000);
    await server.emulator.idle();
    expect(received).toHaveLength(1);
    expect((await call(server.url, 'GET', `/v1/messaging/${id}`)).body.status.code).toBe(207);
  });

  it('a status not valid for the kind is a 400 naming the codes; an unknown reference a 404', async () => {
    const voice = await call(server.url, 'POST', '/v1/voice', { form: sms('15555550302') });
    const wrong = await post(`${server.url}/_emulator/transactions/${voice.body.reference_id}/status`, { code: 200 });
    expect(wrong.status).toBe(400);
    const body = (await wrong.json()) as { error: string; code: string; field: string };
    expect(body).toMatchObject({ code: 'invalid_status', field: 'code' });
    expect(body.error).toMatch(/200 is not a final status of a call/);
    expect(body.error).toMatch(/101 Not answered/);
    const intermediate = await call(server.url, 'POST', '/v1/messaging', { form: sms('15555550303') });
    expect((await post(`${server.url}/_emulator/transactions/${intermediate.body.reference_id}/status`, { code: 290 })).status).toBe(400);
    expect((await post(`${server.url}/_emulator/transactions/${intermediate.body.reference_id}/status`, { code: '200' })).status).toBe(400);
    const unknown = await post(`${server.url}/_emulator/transactions/${'A'.repeat(32)}/status`, { code: 200 });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 'unknown_transaction' });
    expect(received).toEqual([]);
  });

  it('POST /_emulator/clock/advance: deliveries settle and their callbacks are sent, no sleeping', async () => {
    const before = (await (await fetch(`${server.url}/_emulator/clock`)).json()) as { now: number; offsetMs: number };
    expect(before.offsetMs).toBe(0);
    const sent = await call(server.url, 'POST', '/v1/messaging', { form: sms('15555550304') });
    const advanced = await post(`${server.url}/_emulator/clock/advance`, { ms: 60_000 });
    expect(advanced.status).toBe(200);
    const after = (await advanced.json()) as { now: number; offsetMs: number };
    expect(after.offsetMs).toBe(60_000);
    expect(after.now - before.now).toBeGreaterThanOrEqual(60_000);
    // The route answers once the callback attempts it started have answered.
    expect(received.map((r) => JSON.parse(r.body))).toMatchObject([{ reference_id: sent.body.reference_id, status: { code: 200 } }]);
    expect((await call(server.url, 'GET', `/v1/messaging/${sent.body.reference_id}`)).body.status.code).toBe(200);
  });

  it('advancing past the expiry makes a verification code EXPIRED', async () => {
    const sent = await call(server.url, 'POST', '/v1/verify/sms', { form: { phone_number: '15555550305', verify_code: '12345' } });
    await post(`${server.url}/_emulator/clock/advance`, { ms: 10 * 60_000 + 1 });
    const checked = await call(server.url, 'GET', `/v1/verify/${sent.body.reference_id}?verify_code=12345`);
    expect(checked.body.verify.code_state).toBe('EXPIRED');
  });

  it('advance takes a whole number of milliseconds above 0, else a 400 naming ms', async () => {
    for (const ms of [0, -5, 1.5, '10m', null]) {
      const response = await post(`${server.url}/_emulator/clock/advance`, { ms });
      expect(response.status, String(ms)).toBe(400);
      expect(await response.json()).toMatchObject({ code: 'invalid_advance', field: 'ms' });
    }
    expect(server.emulator.clock.offsetMs).toBe(0);
  });

  it('callbacks: listed with the signature redacted and the body hash; raw gives the exact signed bytes; resend sends them again', async () => {
    const sent = await call(server.url, 'POST', '/v1/messaging', { form: sms('15555550306') });
    await server.emulator.clock.advance(60_000);
    const { attempts } = (await (await fetch(`${server.url}/_emulator/callbacks`)).json()) as { attempts: CallbackView[] };
    expect(attempts).toHaveLength(1);
    const [attempt] = attempts;
    const signature = callbackSignature(received[0]!.body, customer.apiKey);
    expect(attempt).toMatchObject({ referenceId: sent.body.reference_id, url: callbackUrl, attempt: 1, ok: true, status: 204, verifiable: true, bodySha256: sha256Hex(received[0]!.body) });
    expect(attempt!.payload).toEqual(JSON.parse(received[0]!.body));
    expect(attempt!.headers.authorization).toBe(`TSA ${customer.customerId}:${signature.slice(0, 6)}…`);
    expect(attempt!.headers['x-ts-authorization']).toBe(`${signature.slice(0, 6)}…`);
    expect(JSON.stringify(attempts)).not.toContain(signature);

    const raw = (await (await fetch(`${server.url}/_emulator/callbacks/${attempt!.id}/raw`)).json()) as { body: string; headers: Record<string, string> };
    expect(raw.body).toBe(received[0]!.body);
    expect(raw.headers.authorization).toBe(`TSA ${customer.customerId}:${signature}`);

    const resent = await fetch(`${server.url}/_emulator/callbacks/${attempt!.id}/resend`, { method: 'POST' });
    expect(resent.status).toBe(202);
    const again = ((await resent.json()) as { attempt: CallbackView }).attempt;
    expect(again).toMatchObject({ resentFrom: attempt!.id, ok: true, status: 204, referenceId: sent.body.reference_id });
    expect(again.id).toBeGreaterThan(attempt!.id);
    expect(received).toHaveLength(2);
    expect(received[1]!.body).toBe(received[0]!.body);
    expect(received[1]!.headers.authorization).toBe(received[0]!.headers.authorization);

    expect((await fetch(`${server.url}/_emulator/callbacks/999999/resend`, { method: 'POST' })).status).toBe(404);
    expect((await fetch(`${server.url}/_emulator/callbacks/abc/raw`)).status).toBe(404);
  });

  it('a retry waits on the emulator clock: advancing brings it forward', async () => {
    failNext = 1;
    await call(server.url, 'POST', '/v1/messaging', { form: sms('15555550307') });
    await server.emulator.clock.advance(60_000);
    expect(server.emulator.callbacks.attempts.map((a) => a.status)).toEqual([503]);
    await server.emulator.clock.advance(10_000);
    expect(server.emulator.callbacks.attempts.map((a) => a.status)).toEqual([503, 204]);
  });
});

describe('in-process', () => {
  it('transactions.setStatus, clock.advance and callbacks.resend', async () => {
    const emulator = createEmulator({ customers: [{ ...customer, callbackUrl }], deliveryDelayMs: 60_000 });
    const sent = await local(emulator, 'POST', '/v1/voice', { form: sms('15555550310') });
    expect(emulator.transactions.list({ kind: 'voice' }).map((t) => t.status.code)).toEqual([103]);
    const view = emulator.transactions.setStatus(sent.body.reference_id, 101);
    expect(view).toMatchObject({ status: { code: 101 }, final: true });
    expect(() => emulator.transactions.setStatus(sent.body.reference_id, 207)).toThrow(EmulatorError);
    expect(() => emulator.transactions.setStatus('0'.repeat(32), 101)).toThrow(expect.objectContaining({ code: 'unknown_transaction' }));
    await emulator.idle();
    const [first] = emulator.callbacks.attempts;
    const again = await emulator.callbacks.resend(first!.id);
    expect(again).toMatchObject({ resentFrom: first!.id, ok: true, body: first!.body });
    await expect(emulator.callbacks.resend(424242)).rejects.toMatchObject({ code: 'unknown_callback' });
    await expect(emulator.clock.advance(0)).rejects.toMatchObject({ code: 'invalid_advance' });
    const now = await emulator.clock.advance(5_000);
    expect(now - emulator.clock.now()).toBeLessThanOrEqual(0);
    expect(emulator.clock.offsetMs).toBe(5_000);
    emulator.close();
  });

  it('waitFor: the outbox, a transaction\'s final status, a callback, a journal entry, a predicate', async () => {
    const emulator = createEmulator({ customers: [{ ...customer, callbackUrl }], deliveryDelayMs: 60_000 });
    const waiting = emulator.waitFor({ outbox: { phoneNumber: '+1 555 555 0320' } });
    const sent = await local(emulator, 'POST', '/v1/messaging', { form: sms('15555550320') });
    await expect(waiting).resolves.toMatchObject({ referenceId: sent.body.reference_id, text: 'hello' });
    // Already there: resolves at once.
    await expect(emulator.waitFor({ outbox: { phoneNumber: '15555550320' } })).resolves.toMatchObject({ phoneNumber: '15555550320' });

    const final = emulator.waitFor({ transaction: { referenceId: sent.body.reference_id, final: true } });
    const delivered = emulator.waitFor({ callback: { referenceId: sent.body.reference_id, ok: true } });
    await emulator.clock.advance(60_000);
    await expect(final).resolves.toMatchObject({ status: { code: 200 }, final: true });
    await expect(delivered).resolves.toMatchObject({ status: 204, ok: true });
    await expect(emulator.waitFor({ journal: { path: '/v1/messaging', status: 200 } })).resolves.toMatchObject({ referenceId: sent.body.reference_id });
    await expect(emulator.waitFor(() => emulator.outbox.list().length >= 1 && 'yes')).resolves.toBe('yes');
    emulator.close();
  });

  it('waitFor rejects after timeoutMs with an EmulatorError saying what it saw', async () => {
    const emulator = createEmulator();
    await local(emulator, 'POST', '/v1/messaging', { form: sms('15555550330') });
    const error = await emulator.waitFor({ outbox: { phoneNumber: '15555550331' } }, { timeoutMs: 30 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmulatorError);
    expect(error).toMatchObject({ code: 'wait_timeout' });
    expect((error as Error).message).toMatch(/30 ms.*15555550331.*15555550330/);
    await expect(emulator.waitFor({ fax: {} } as never)).rejects.toMatchObject({ code: 'invalid_option' });
    await expect(emulator.waitFor(() => undefined, { timeoutMs: -1 })).rejects.toMatchObject({ code: 'invalid_option' });
    emulator.close();
  });

  it('events.subscribe sees journal, outbox, transaction, clock and reset; unsubscribe stops it', async () => {
    const emulator = createEmulator();
    const seen: string[] = [];
    const stop = emulator.events.subscribe((event) => seen.push(event.type));
    await local(emulator, 'POST', '/v1/messaging', { form: sms('15555550340') });
    await emulator.clock.advance(1_000);
    emulator.faults.add({ type: 'drop', path: '/nowhere' });
    emulator.reset();
    expect(seen).toEqual(['transaction', 'outbox', 'journal', 'clock', 'transaction', 'faults', 'faults', 'reset']);
    stop();
    await local(emulator, 'POST', '/v1/messaging', { form: sms('15555550341') });
    expect(seen).toHaveLength(8);
    emulator.close();
  });
});

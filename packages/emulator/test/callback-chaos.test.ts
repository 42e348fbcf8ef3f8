// Callback chaos: each kind of callback fault against a real receiver on 127.0.0.1 that checks
// every callback's signature and keeps each message's final status (a final status is never
// replaced by one in progress). The same scenario through @x/webhooks/router's nextDeliveryState is
// in packages/webhooks/test/emulator-chaos.test.ts (@x/webhooks tests against the emulator).
import { callbackSignature } from '@x/auth';
import { timingSafeEqual } from '@x/auth/protocol';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FaultRuleError } from '../src/errors.js';
import { startEmulator, type RunningEmulator } from '../src/node.js';
import { call, customer } from './helpers.js';

interface Arrival {
  code: number;
  verified: boolean;
}
let receiver: Server;
let receiverUrl: string;
let arrivals: Arrival[] = [];
const states = new Map<string, { code: number; final: boolean }>();
const PENDING = new Set([103, 290]);

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const verified = timingSafeEqual(String(req.headers['x-ts-authorization']), callbackSignature(body, customer.apiKey));
      const payload = JSON.parse(body) as { reference_id: string; status: { code: number } };
      arrivals.push({ code: payload.status.code, verified });
      const incoming = { code: payload.status.code, final: !PENDING.has(payload.status.code) };
      const previous = states.get(payload.reference_id);
      if (verified && !(previous?.final && !incoming.final)) states.set(payload.reference_id, incoming);
      res.writeHead(verified ? 200 : 401).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/cb`;
});
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

let server: RunningEmulator;
beforeEach(async () => {
  arrivals = [];
  states.clear();
  server = await startEmulator({ customers: [{ ...customer, callbackUrl: receiverUrl }], deliveryDelayMs: 5, callbacks: { retryDelaysMs: [20] } });
});
afterEach(() => server.close());

const addRule = (rule: unknown) => fetch(`${server.url}/_emulator/faults`, { method: 'POST', body: JSON.stringify(rule) });
const sendSms = async (phone = '15555550140') => {
  const sent = await call(server.url, 'POST', '/v1/messaging', { form: { phone_number: phone, message: 'hello', message_type: 'ARN' } });
  expect(sent.status).toBe(200);
  await server.emulator.idle();
  return sent.body.reference_id as string;
};

describe('callback faults, set through the control API', () => {
  it('duplicate: the callback arrives 1 + copies times, each signed; the journal of attempts says which copy', async () => {
    expect((await addRule({ type: 'callback', chaos: 'duplicate', copies: 2 })).status).toBe(201);
    const ref = await sendSms();
    expect(arrivals).toEqual([{ code: 200, verified: true }, { code: 200, verified: true }, { code: 200, verified: true }]);
    expect(server.emulator.callbacks.list().map((a) => a.chaos?.detail)).toEqual(['copy 1 of 3', 'copy 2 of 3', 'copy 3 of 3']);
    expect(states.get(ref)).toMatchObject({ code: 200, final: true });
  });

  it('reorder: the earlier 290 arrives after the final 200, and the receiver keeps the 200', async () => {
    await addRule({ type: 'callback', chaos: 'reorder' });
    const ref = await sendSms();
    expect(arrivals.map((a) => a.code)).toEqual([200, 290]);
    expect(arrivals.every((a) => a.verified)).toBe(true);
    expect(states.get(ref)).toMatchObject({ code: 200, final: true });
    const views = server.emulator.callbacks.list();
    expect(views.map((a) => a.chaos?.kind)).toEqual([undefined, 'reorder']);
    expect(views[1]!.chaos!.detail).toBe('earlier status 290 sent after the final 200');
  });

  it('late: the earlier status comes delayMs after the final one (brought forward by the clock), the final status stays', async () => {
    await addRule({ type: 'callback', chaos: 'late', delayMs: 60_000 });
    const ref = await call(server.url, 'POST', '/v1/messaging', { form: { phone_number: '15555550141', message: 'hello', message_type: 'ARN' } }).then((r) => r.body.reference_id as string);
    await server.emulator.waitFor({ callback: { referenceId: ref } });
    expect(arrivals.map((a) => a.code)).toEqual([200]);
    await server.emulator.clock.advance(60_000);
    await server.emulator.idle();
    expect(arrivals.map((a) => a.code)).toEqual([200, 290]);
    expect(states.get(ref)).toMatchObject({ code: 200, final: true });
    expect(server.emulator.callbacks.list()[1]!.chaos).toEqual({ kind: 'late', detail: 'earlier status 290 sent 60000 ms after the final 200' });
  });

  it('drop: the first attempt never reaches the receiver; the retry delivers it once', async () => {
    await addRule({ type: 'callback', chaos: 'drop' });
    const ref = await sendSms();
    expect(arrivals).toEqual([{ code: 200, verified: true }]);
    const attempts = server.emulator.callbacks.list();
    expect(attempts.map((a) => [a.attempt, a.ok, a.status])).toEqual([[1, false, undefined], [2, true, 200]]);
    expect(attempts[0]!.error).toMatch(/dropped by a callback fault/);
    expect(states.get(ref)).toMatchObject({ code: 200 });
  });

  it('a rule is limited by number prefix and product, used up after `times`, and carried by the event stream', async () => {
    const seen: unknown[] = [];
    server.emulator.events.subscribe((event) => {
      if (event.type === 'callback' && event.data.chaos) seen.push(event.data.chaos);
    });
    server.emulator.faults.add({ type: 'callback', chaos: 'duplicate', phoneNumber: '+1 555 777', product: 'messaging' });
    await sendSms('15555550142'); // another number: untouched
    expect(arrivals).toHaveLength(1);
    await call(server.url, 'POST', '/v1/voice', { form: { phone_number: '15557770001', message: 'x', message_type: 'ARN' } });
    await server.emulator.idle(); // another product: untouched
    expect(arrivals).toHaveLength(2);
    await sendSms('15557770002');
    expect(arrivals).toHaveLength(4);
    await sendSms('15557770003'); // used up
    expect(arrivals).toHaveLength(5);
    expect(seen).toEqual([{ kind: 'duplicate', detail: 'copy 1 of 2' }, { kind: 'duplicate', detail: 'copy 2 of 2' }]);
  });

  it('refuses a bad callback rule with the field at fault, through the API and in process', async () => {
    const bad = await addRule({ type: 'callback', chaos: 'reorder', copies: 2 });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'invalid_fault', field: 'copies' });
    expect(() => server.emulator.faults.add({ type: 'callback', chaos: 'late', delayMs: -1 })).toThrow(FaultRuleError);
    expect(() => server.emulator.faults.add({ type: 'callback', chaos: 'drop', path: '/v1' } as never)).toThrow(/not a field of a callback fault/);
    expect(() => server.emulator.faults.add({ type: 'callback', chaos: 'drop', product: 'fax' } as never)).toThrow(expect.objectContaining({ field: 'product' }));
    expect(server.emulator.faults.list()).toEqual([]);
  });
});

describe('several callback rules: every one that matches applies, in order', () => {
  it('drop + duplicate: the first attempt is lost, its retry delivers, then the extra copy; both rules are used', async () => {
    await addRule({ type: 'callback', chaos: 'drop' });
    await addRule({ type: 'callback', chaos: 'duplicate' });
    const ref = await sendSms();
    expect(arrivals).toEqual([{ code: 200, verified: true }, { code: 200, verified: true }]);
    const attempts = server.emulator.callbacks.list();
    expect(attempts.map((a) => [a.attempt, a.ok, a.chaos?.kind])).toEqual([[1, false, 'drop'], [2, true, 'duplicate'], [1, true, 'duplicate']]);
    expect(attempts.map((a) => a.chaos?.detail)).toEqual(['first attempt dropped by a callback fault: never sent; the retries follow; copy 1 of 2', 'copy 1 of 2', 'copy 2 of 2']);
    expect(server.emulator.faults.list()).toEqual([]);
    expect(states.get(ref)).toMatchObject({ code: 200, final: true });
  });

  it('duplicate + reorder: the final status twice, then the earlier one; duplicates add up', async () => {
    await addRule({ type: 'callback', chaos: 'duplicate' });
    await addRule({ type: 'callback', chaos: 'reorder' });
    await addRule({ type: 'callback', chaos: 'duplicate', copies: 2 });
    const ref = await sendSms();
    expect(arrivals.map((a) => a.code)).toEqual([200, 200, 200, 200, 290]);
    expect(server.emulator.callbacks.list().map((a) => a.chaos?.kind)).toEqual(['duplicate', 'duplicate', 'duplicate', 'duplicate', 'reorder']);
    expect(states.get(ref)).toMatchObject({ code: 200, final: true });
  });

  it('reorder and late can both reach one callback: refused with a 400 that says why; narrowed apart they are accepted', async () => {
    expect((await addRule({ type: 'callback', chaos: 'reorder', phoneNumber: '1555' })).status).toBe(201);
    const refused = await addRule({ type: 'callback', chaos: 'late', delayMs: 1_000 });
    expect(refused.status).toBe(400);
    const body = await refused.json();
    expect(body).toMatchObject({ code: 'invalid_fault', field: 'chaos' });
    expect(body.error).toMatch(/"late" and "reorder" both send the earlier status after the final one/);
    expect((await addRule({ type: 'callback', chaos: 'reorder', product: 'voice', phoneNumber: '15555' })).status).toBe(400);
    expect((await addRule({ type: 'callback', chaos: 'late', phoneNumber: '1666' })).status).toBe(201);
    expect(server.emulator.faults.list().map((r) => (r as { chaos: string }).chaos)).toEqual(['reorder', 'late']);
  });
});

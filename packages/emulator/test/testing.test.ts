// @x/emulator/vitest (and /jest, the same code): the fixture (one emulator per file, reset before
// each test) and the matchers, registered with Vitest's own expect.extend. Requests are signed
// and sent in-process; callbacks go to a real receiver on 127.0.0.1.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { emulatorMatchers, useEmulator } from '../src/vitest.js';
import * as jestEntry from '../src/jest.js';
import { customer, local } from './helpers.js';

expect.extend(emulatorMatchers);

let receiver: Server;
let receiverUrl = '';
beforeAll(async () => {
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(req.url === '/refuse' ? 500 : 200).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

const emulator = useEmulator({ beforeEach, afterAll }, { deliveryDelayMs: 5, callbacks: { retryDelaysMs: [] } });

const sms = (phone: string, message: string, callbackUrl?: string) =>
  local(emulator, 'POST', '/v1/messaging', { form: { phone_number: phone, message, message_type: 'ARN', ...(callbackUrl ? { callback_url: callbackUrl } : {}) } });

/** The failure message of an assertion that must fail. */
function failure(assertion: () => void): string {
  try {
    assertion();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the assertion passed');
}

describe('the fixture', () => {
  it('a test sends an SMS', async () => {
    await sms('15555550170', 'first test');
    expect(emulator.outbox.list()).toHaveLength(1);
  });

  it('the next test starts from an empty emulator (reset before each test)', () => {
    expect(emulator.outbox.list()).toEqual([]);
    expect(emulator.journal.list()).toEqual([]);
  });

  it('asks for the hooks when they are not given', () => {
    expect(() => useEmulator(undefined as never)).toThrow(/useEmulator\(\{ beforeEach, afterAll \}\)/);
  });

  it('the Jest entry exports the same fixture and matchers', () => {
    expect(jestEntry.useEmulator).toBe(useEmulator);
    expect(jestEntry.emulatorMatchers).toBe(emulatorMatchers);
  });
});

describe('toHaveSentSms, toHavePlacedCall', () => {
  it('passes for an SMS sent, by number in any format and by text (exact, RegExp, asymmetric)', async () => {
    await sms('15555550171', 'Your parcel is on its way');
    expect(emulator).toHaveSentSms();
    expect(emulator).toHaveSentSms({ to: '+1 555 555 0171', text: 'Your parcel is on its way' });
    expect(emulator).toHaveSentSms({ text: /parcel/ });
    expect(emulator).toHaveSentSms({ to: '15555550171', text: expect.stringContaining('on its way') });
    expect(emulator).not.toHaveSentSms({ to: '15555550172' });
    expect(emulator).not.toHavePlacedCall();
  });

  it('fails listing what was sent instead, the verification code masked', async () => {
    await sms('15555550173', 'See you at 10');
    const verify = await local(emulator, 'POST', '/v1/verify/sms', { form: { phone_number: '15555550174' } });
    expect(verify.status).toBe(200);
    const code = emulator.outbox.latest('15555550174')!.code!;
    const message = failure(() => expect(emulator).toHaveSentSms({ to: '15555550175', text: 'hello' }));
    expect(message).toContain('expected the emulator to have sent an SMS with to "15555550175", text "hello"');
    expect(message).toContain('to 15555550173: "See you at 10"');
    expect(message).toContain(`to 15555550174: "Your code is ${'•'.repeat(code.length)}`);
    expect(message).not.toContain(code);
  });

  it('.not fails naming the message that matched', async () => {
    await sms('15555550176', 'unwanted');
    expect(failure(() => expect(emulator).not.toHaveSentSms({ to: '15555550176' }))).toContain('not to have sent an SMS with to "15555550176", but it did:\n  - to 15555550176: "unwanted"');
  });

  it('finds a call (Voice) and says when nothing was sent at all', async () => {
    expect(failure(() => expect(emulator).toHavePlacedCall({ to: '15555550177' }))).toContain('it placed:\n  (nothing)');
    await local(emulator, 'POST', '/v1/voice', { form: { phone_number: '15555550177', message: 'Your table is ready', message_type: 'ARN' } });
    expect(emulator).toHavePlacedCall({ to: '15555550177', text: 'Your table is ready' });
    expect(emulator).not.toHaveSentSms();
  });

  it('explains what to pass when expect() is given something else', () => {
    expect(failure(() => expect({ outbox: [] }).toHaveSentSms())).toContain('must be given the emulator');
  });
});

describe('toHaveDeliveredCallback', () => {
  it('passes for a delivery report the receiver answered with 2xx, by kind and status', async () => {
    const sent = await sms('15555550178', 'with a receipt', `${receiverUrl}/callbacks`);
    await emulator.clock.advance(10);
    await emulator.idle();
    expect(emulator).toHaveDeliveredCallback({ kind: 'sms', status: 200 });
    expect(emulator).toHaveDeliveredCallback({ referenceId: sent.body.reference_id });
    expect(emulator).not.toHaveDeliveredCallback({ kind: 'voice' });
    expect(emulator).not.toHaveDeliveredCallback({ kind: 'sms', status: 207 });
  });

  it('fails listing the callbacks delivered, counting those the receiver refused', async () => {
    await sms('15555550001', 'undeliverable', `${receiverUrl}/callbacks`); // suffix 0001: 207
    await sms('15555550179', 'refused', `${receiverUrl}/refuse`);
    await emulator.clock.advance(10);
    await emulator.idle();
    const message = failure(() => expect(emulator).toHaveDeliveredCallback({ kind: 'sms', status: 200 }));
    expect(message).toMatch(/it delivered:\n {2}- sms [0-9A-F]{32} status 207 to http:\/\/127\.0\.0\.1:\d+\/callbacks/);
    expect(message).toContain('(1 attempt not answered with 2xx');
    expect(message).toContain('await emulator.idle()');
  });

  it('an inbound SMS is kind inbound', async () => {
    emulator.customers.set(customer.customerId, { ...customer, callbackUrl: `${receiverUrl}/callbacks` });
    emulator.inbound({ from: '15555550180', to: '15555550181', text: 'STOP' });
    await emulator.idle();
    expect(emulator).toHaveDeliveredCallback({ kind: 'inbound' });
  });
});

// The real parts count (analyzeMessage of @x/service): in the status answer and the callback's
// `message_parts_count`, and in the outbox message with the encoding and the characters that forced
// UCS-2, which the inspector shows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../src/node.js';
import { call, customer, startCallbackRecorder } from './helpers.js';

let recorder: Awaited<ReturnType<typeof startCallbackRecorder>>;
let server: RunningEmulator;
const payload = (i: number) => JSON.parse(recorder.received[i]!.body);

beforeAll(async () => {
  recorder = await startCallbackRecorder();
  server = await startEmulator({ customers: [{ ...customer, callbackUrl: recorder.url }], deliveryDelayMs: 5 });
});
afterAll(async () => {
  await server.close();
  await recorder.close();
});

const send = (phone: string, message: string) => call(server.url, 'POST', '/v1/messaging', { form: { phone_number: phone, message, message_type: 'ARN' } });

describe('message_parts_count and the outbox facts', () => {
  it.each([
    ['160 GSM-7 characters: one part', 'a'.repeat(160), 'GSM-7', 1, []],
    ['161 GSM-7 characters: two parts', 'a'.repeat(161), 'GSM-7', 2, []],
    ['80 characters with one curly quote: UCS-2, two parts', `It\u2019s ${'a'.repeat(75)}`, 'UCS-2', 2, [{ character: '\u2019', index: 2 }]],
    ['an emoji in a short text: UCS-2, one part', 'Done \u{1F389}', 'UCS-2', 1, [{ character: '\u{1F389}', index: 5 }]],
  ])('%s', async (_name, message, encoding, parts, nonGsm) => {
    recorder.received.length = 0;
    const sent = await send('15555550160', message);
    expect(sent.status).toBe(200);
    const outbox = server.emulator.outbox.latest('15555550160')!;
    expect(outbox).toMatchObject({ referenceId: sent.body.reference_id, encoding, parts, nonGsm });
    await server.emulator.idle();
    const status = await call(server.url, 'GET', `/v1/messaging/${sent.body.reference_id}`);
    expect(status.body.additional_info.message_parts_count).toBe(parts);
    expect(recorder.received).toHaveLength(1);
    expect(payload(0).additional_info.message_parts_count).toBe(parts);
  });

  it('SMS Verify counts the text as sent (the code substituted in the template)', async () => {
    recorder.received.length = 0;
    const template = `Your code is $$CODE$$. ${'x'.repeat(150)}`;
    const sent = await call(server.url, 'POST', '/v1/verify/sms', { form: { phone_number: '15555550161', verify_code: '1234', template } });
    expect(sent.status).toBe(200);
    expect(server.emulator.outbox.latest('15555550161')).toMatchObject({ encoding: 'GSM-7', parts: 2, units: 169 }); // 173 before the code replaced $$CODE$$
    await server.emulator.idle();
    expect(payload(0).additional_info.message_parts_count).toBe(2);
  });

  it('keeps at most 20 offending characters, the first ones, and the control route lists them', async () => {
    await send('15555550162', '\u00e1'.repeat(30));
    const listed = await fetch(`${server.url}/_emulator/outbox?phone_number=15555550162`).then((r) => r.json());
    const [message] = listed.messages;
    expect(message).toMatchObject({ encoding: 'UCS-2', parts: 1, unitsPerPart: 70, units: 30 });
    expect(message.nonGsm).toHaveLength(20);
    expect(message.nonGsm[19]).toEqual({ character: '\u00e1', index: 19 });
  });

  it('a Verify API SMS carries them too', async () => {
    const url = new URL('/verification', server.url);
    const body = JSON.stringify({ recipient: { phone_number: '15555550164' }, verification_policy: [{ method: 'sms' }] });
    const { signRequest } = await import('@x/auth');
    const created = await fetch(url, { method: 'POST', headers: signRequest({ method: 'POST', url, contentType: 'application/json', body }, customer).headers, body });
    expect(created.status).toBe(200);
    expect(server.emulator.outbox.latest('15555550164')).toMatchObject({ channel: 'sms', product: 'verify_api', encoding: 'GSM-7', parts: 1 });
  });

  it('calls carry no SMS facts', async () => {
    await call(server.url, 'POST', '/v1/voice', { form: { phone_number: '15555550163', message: 'Hello', message_type: 'ARN' } });
    const message = server.emulator.outbox.latest('15555550163')!;
    expect(message.channel).toBe('voice');
    expect(message.parts).toBeUndefined();
  });
});

// Item 8: outbox, journal and transaction look-ups accept any phone format the client accepts.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator } from '../src/index.js';
import { startEmulator, type RunningEmulator } from '../src/node.js';
import { call, local } from './helpers.js';

const sms = (phone_number: string) => ({ phone_number, message: 'hello', message_type: 'ARN' });

describe('phone look-ups in-process', () => {
  it('"+1 555 555 1234" finds what was sent to 15555551234 (outbox list and latest)', async () => {
    const emulator = createEmulator();
    await local(emulator, 'POST', '/v1/messaging', { form: sms('15555551234') });
    await local(emulator, 'POST', '/v1/messaging', { form: sms('15555550000') });
    expect(emulator.outbox.list({ phoneNumber: '+1 555 555 1234' }).map((m) => m.phoneNumber)).toEqual(['15555551234']);
    expect(emulator.outbox.latest('+1 (555) 555-1234')?.phoneNumber).toBe('15555551234');
    expect(emulator.outbox.latest('1.555.555.1234')?.text).toBe('hello');
    emulator.close();
  });

  it('any formatting the client accepts finds the same messages (property)', async () => {
    const emulator = createEmulator();
    await local(emulator, 'POST', '/v1/messaging', { form: sms('447911123456') });
    const separator = fc.constantFrom('', ' ', '-', '.', '(', ')', '  ');
    await fc.assert(
      fc.property(fc.array(separator, { minLength: 12, maxLength: 12 }), fc.boolean(), (seps, plus) => {
        const formatted = (plus ? '+' : '') + [...'447911123456'].map((d, i) => d + seps[i]).join('');
        return emulator.outbox.list({ phoneNumber: formatted }).length === 1;
      }),
    );
    emulator.close();
  });
});

describe('phone look-ups over HTTP', () => {
  let server: RunningEmulator;
  beforeAll(async () => {
    server = await startEmulator();
  });
  afterAll(() => server.close());

  it('GET /_emulator/outbox?phone_number=+1 555 555 1234 finds 15555551234', async () => {
    await call(server.url, 'POST', '/v1/messaging', { form: sms('15555551234') });
    const response = await fetch(`${server.url}/_emulator/outbox?phone_number=${encodeURIComponent('+1 555 555 1234')}`);
    expect(response.status).toBe(200);
    const { messages } = (await response.json()) as { messages: Array<{ phoneNumber: string }> };
    expect(messages.map((m) => m.phoneNumber)).toEqual(['15555551234']);
  });

  it('a phone_number that is no phone number is a 400 naming the field', async () => {
    const response = await fetch(`${server.url}/_emulator/outbox?phone_number=call-me-maybe`);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'invalid_query', field: 'phone_number' });
  });
});

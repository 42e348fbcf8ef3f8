import { createEmulator, DEFAULT_CUSTOMER } from '@x/emulator';
import { startEmulator, type RunningEmulator } from '@x/emulator/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Client } from '../src/index.js';

let server: RunningEmulator;
beforeAll(async () => {
  server = await startEmulator({ deliveryDelayMs: 30 });
});
afterAll(() => server.close());

const waitFor = async <T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> => {
  for (let i = 0; i < 100; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('condition not reached');
};

function operations(name: string, make: () => { client: Client; outbox: (phone: string) => string | undefined }) {
  describe(`every operation against the emulator (${name})`, () => {
    it('sends an SMS and follows it to delivered', async () => {
      const { client } = make();
      const sent = await client.messaging.send({ phoneNumber: '15555550200', message: 'Hello', messageType: 'ARN' });
      expect(sent.status).toBe(200);
      expect(sent.data.status.code).toBe(290);
      expect(sent.headers.get('content-type')).toBe('application/json');
      const final = await waitFor(() => client.messaging.status(sent.data.reference_id), (r) => r.data.status.code !== 290);
      expect(final.data.status).toMatchObject({ code: 200, description: 'Delivered to handset' });
    });

    it('verifies with the code from the outbox, and rejects a wrong one', async () => {
      const { client, outbox } = make();
      const started = await client.verify.sms({ phoneNumber: '15555550201', template: 'Your code: $$CODE$$' });
      const code = /\d{7}/.exec(outbox('15555550201') ?? '')![0];
      const wrong = await client.verify.check(started.data.reference_id, code === '1111111' ? '2222222' : '1111111');
      expect(wrong.data.verify.code_state).toBe('INVALID');
      const right = await client.verify.check(started.data.reference_id, code);
      expect(right.data.verify).toEqual({ code_state: 'VALID', code_entered: code });
      expect((await client.verify.status(started.data.reference_id)).data.verify.code_state).toBe('VALID');
    });

    it('looks up a phone and places a call', async () => {
      const { client } = make();
      const pid = await client.phoneId.lookup('447700900123', { addons: { contact: {} } });
      expect(pid.data.location?.country.iso2).toBe('GB');
      expect(pid.data.contact?.status.code).toBe(2800);
      const form = await client.phoneId.lookup('15555550005', { encoding: 'form' });
      expect(form.data.phone_type.description).toBe('FIXED_LINE');
      const call = await client.voice.call({ phoneNumber: '15555550202', message: 'Hello', messageType: 'OTP', voice: 'f-en-US' });
      expect(call.data.status.code).toBe(103);
      const final = await waitFor(() => client.voice.status(call.data.reference_id), (r) => r.data.status.code !== 103);
      expect(final.data.status.code).toBe(100);
    });

    it('surfaces service errors with their codes', async () => {
      const { client } = make();
      await expect(client.messaging.status('0123456789ABCDEF0123456789ABCDEF')).rejects.toMatchObject({ name: 'ApiError', status: 404, serviceCode: 10017 });
    });
  });
}

operations('HTTP on 127.0.0.1', () => ({
  client: createClient({ ...DEFAULT_CUSTOMER, baseUrl: server.url }),
  outbox: (phone) => server.emulator.outbox.latest(phone)?.text,
}));

const inProcess = createEmulator({ deliveryDelayMs: 30 });
afterAll(() => inProcess.close());
operations('in-process fetch', () => ({
  client: createClient({ ...DEFAULT_CUSTOMER, baseUrl: 'http://emulator.local', fetch: inProcess.fetch }),
  outbox: (phone) => inProcess.outbox.latest(phone)?.text,
}));

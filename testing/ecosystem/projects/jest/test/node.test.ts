// A NestJS-style test file (Jest 30, ts-jest, CommonJS, testEnvironment node, the default config):
// the packages load as published, the client's default Node transport talks to the emulator over
// HTTP, and callbacks verify.
import { createClient, AuthenticationError } from '@x/client';
import { createEmulator, DEFAULT_CUSTOMER } from '@x/emulator';
import { startEmulator, type RunningEmulator } from '@x/emulator/node';
import { verifyCallback } from '@x/webhooks';
import { createSignedCallback } from '@x/webhooks/testing';

const delivered = '{"reference_id":"0123456789ABCDEF0123456789ABCDEF","status":{"code":200,"description":"Delivered to handset","updated_on":"2026-01-01T00:00:00Z"}}';

describe('in Jest (CommonJS, node environment)', () => {
  let server: RunningEmulator;
  beforeAll(async () => {
    server = await startEmulator({ port: 0 });
  });
  afterAll(() => server.close());

  test('the client with default options sends an SMS to the emulator over HTTP', async () => {
    const client = createClient({ ...DEFAULT_CUSTOMER, baseUrl: server.url });
    const { data, status } = await client.messaging.send({ phoneNumber: '15555551234', message: 'hello from jest', messageType: 'ARN' });
    expect(status).toBe(200);
    expect(server.emulator.outbox.latest('15555551234')?.text).toBe('hello from jest');
    expect(server.emulator.transactions.get(data.reference_id)).toBeDefined();
  });

  test('a wrong API key is an AuthenticationError', async () => {
    const client = createClient({ customerId: DEFAULT_CUSTOMER.customerId, apiKey: btoa('not the key'), baseUrl: server.url, retry: false });
    await expect(client.messaging.status('0123456789ABCDEF0123456789ABCDEF')).rejects.toBeInstanceOf(AuthenticationError);
  });

  test('the in-process emulator serves the client through its fetch', async () => {
    const emulator = createEmulator();
    const client = createClient({ ...DEFAULT_CUSTOMER, baseUrl: 'http://emulator.local', fetch: emulator.fetch });
    await client.messaging.send({ phoneNumber: '15555550100', message: 'in process', messageType: 'ARN' });
    expect(emulator.outbox.list().map((m) => m.text)).toEqual(['in process']);
    emulator.close();
  });

  test('a signed callback verifies; a tampered one is refused with a reason', async () => {
    const { body, headers } = createSignedCallback(delivered, DEFAULT_CUSTOMER);
    const ok = await verifyCallback({ body, headers }, DEFAULT_CUSTOMER);
    expect(ok.ok && ok.payload.reference_id).toBe('0123456789ABCDEF0123456789ABCDEF');
    const tampered = await verifyCallback({ body: body.replace('200', '203'), headers }, DEFAULT_CUSTOMER);
    expect(tampered.ok).toBe(false);
  });
});

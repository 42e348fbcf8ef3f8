// The official Node client (telesignsdk from the npm registry) against the emulator: proof that the
// emulator agrees with the service's real clients, not only with our own signer.
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../src/node.js';
import { customer } from './helpers.js';

const require = createRequire(import.meta.url);
const TeleSign = require('telesignsdk');

let server: RunningEmulator;
let client: any;
beforeAll(async () => {
  server = await startEmulator({ deliveryDelayMs: 10 });
  client = new TeleSign(customer.customerId, customer.apiKey, server.url, 5_000);
});
afterAll(() => server.close());

const promisify = (fn: (cb: (err: unknown, body: any) => void) => void) =>
  new Promise<any>((resolve, reject) => fn((err, body) => (err ? reject(err) : resolve(body))));

describe('telesignsdk against the emulator', () => {
  it('sends an SMS and reads its status', async () => {
    const sent = await promisify((cb) => client.sms.message(cb, '15555550140', 'Hello from the official client', 'ARN'));
    expect(sent.status.code).toBe(290);
    expect(server.emulator.outbox.latest('15555550140')?.text).toBe('Hello from the official client');
    await new Promise((r) => setTimeout(r, 20));
    const status = await promisify((cb) => client.sms.status(cb, sent.reference_id));
    expect(status.status.code).toBe(200);
  });

  it('runs PhoneID (JSON body "{}")', async () => {
    const body = await promisify((cb) => client.phoneid.phoneID(cb, '15555550141'));
    expect(body.status.code).toBe(300);
    expect(body.phone_type.description).toBe('MOBILE');
  });

  it('places a voice call and reads its status', async () => {
    const placed = await promisify((cb) => client.voice.call(cb, '15555550142', 'Hello', 'ARN'));
    expect(placed.status.code).toBe(103);
    await new Promise((r) => setTimeout(r, 20));
    const status = await promisify((cb) => client.voice.status(cb, placed.reference_id));
    expect(status.status.code).toBe(100);
  });

  it('is refused with a wrong key (the emulator really checks its signature)', async () => {
    const wrong = new TeleSign(customer.customerId, 'd3Jvbmcta2V5', server.url, 5_000);
    const body = await promisify((cb) => wrong.sms.message(cb, '15555550143', 'x', 'ARN'));
    expect(body.status.code).toBe(10008);
  });
});

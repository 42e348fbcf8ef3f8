// Options given as undefined are "not given" (exactOptionalPropertyTypes): every option
// of createEmulator and startEmulator may be passed a value that is undefined, as a config read
// from the environment gives, and then its default applies.
import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator, type EmulatorOptions } from '../src/index.js';
import { startEmulator, type RunningEmulator } from '../src/node.js';
import { call, local } from './helpers.js';

const allUndefined: { [K in keyof Required<EmulatorOptions>]: undefined } = {
  customers: undefined,
  deliveryDelayMs: undefined,
  callDelayMs: undefined,
  verify: undefined,
  verifyApi: undefined,
  products: undefined,
  callbacks: undefined,
  now: undefined,
  controlToken: undefined,
  maxBodyBytes: undefined,
  retentionMs: undefined,
  maxTransactions: undefined,
  allowBasic: undefined,
  clockSkewMs: undefined,
  replayStore: undefined,
  mac: undefined,
  logger: undefined,
  journalSize: undefined,
  random: undefined,
  cors: undefined,
  numbers: undefined,
};

describe('options given as undefined', () => {
  let server: RunningEmulator | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('createEmulator: the defaults apply (the default account is accepted, an SMS is sent and journaled)', async () => {
    const emulator = createEmulator({ ...allUndefined, verify: { expiryMs: undefined, maxAttempts: undefined }, callbacks: { fetch: undefined, timeoutMs: undefined, retryDelaysMs: undefined } });
    const answer = await local(emulator, 'POST', '/v1/messaging', { form: { phone_number: '15555550100', message: 'hi', message_type: 'ARN' } });
    expect(answer.status).toBe(200);
    expect(emulator.journal.list()).toHaveLength(1);
    emulator.close();
  });

  it('startEmulator: port, hostname and token undefined give 127.0.0.1, a free port and no token', async () => {
    server = await startEmulator({ ...allUndefined, port: undefined, hostname: undefined, controlToken: undefined, emulator: undefined });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.controlToken).toBeUndefined();
    const answer = await call(server.url, 'POST', '/v1/messaging', { form: { phone_number: '15555550100', message: 'hi', message_type: 'ARN' } });
    expect(answer.status).toBe(200);
  });
});

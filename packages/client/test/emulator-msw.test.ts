// The client with default options (Node: the node:http transport, the service's own hosts) talks to
// an in-process emulator through msw and @x/emulator/msw, with no change to how it is created:
// the REST host and the Verify API host both reach the emulator, and nothing leaves the process
// (onUnhandledRequest 'error').
import { createEmulator, DEFAULT_CUSTOMER } from '@x/emulator';
import { emulatorHandlers } from '@x/emulator/msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createClient } from '@x/client';

const emulator = createEmulator();
const mocks = setupServer(...emulatorHandlers(emulator));
beforeAll(() => mocks.listen({ onUnhandledRequest: 'error' }));
afterAll(() => {
  mocks.close();
  emulator.close();
});

it('sends an SMS to the default host over node:http: the emulator answers and its outbox holds it', async () => {
  const client = createClient(DEFAULT_CUSTOMER);
  // The default transport on Node is node:http, which msw intercepts too: with fetch unusable
  // (msw's own interception of fetch included), the request still reaches the emulator.
  const fetchBefore = globalThis.fetch;
  globalThis.fetch = () => Promise.reject(new Error('fetch was used'));
  let data;
  try {
    ({ data } = await client.messaging.send({ phoneNumber: '15555550160', message: 'no code change', messageType: 'ARN' }));
  } finally {
    globalThis.fetch = fetchBefore;
  }
  expect(data.status.code).toBe(290);
  expect(emulator.outbox.latest('15555550160')?.text).toBe('no code change');
  expect(emulator.transactions.get(data.reference_id)?.kind).toBe('sms');
});

it('runs an SMS verification end to end: the code the emulator sent checks VALID', async () => {
  const client = createClient(DEFAULT_CUSTOMER);
  const { data } = await client.verify.sms({ phoneNumber: '15555550161' });
  const code = emulator.outbox.latest('15555550161')?.code;
  expect(code).toMatch(/^\d+$/);
  const checked = await client.verify.check(data.reference_id, code!);
  expect(checked.data.verify.code_state).toBe('VALID');
});

it('sends the Verify API to its own host (verify.telesign.com), which reaches the emulator too', async () => {
  const client = createClient(DEFAULT_CUSTOMER);
  const { data } = await client.verifyApi.create({ phoneNumber: '15555550162', policy: [{ method: 'sms' }] });
  expect(data.reference_id).toMatch(/^[0-9A-F]{32}$/);
  expect(emulator.journal.list({ path: '/verification' }).map((e) => e.status)).toEqual([200]);
});

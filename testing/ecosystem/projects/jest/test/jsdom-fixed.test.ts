// A front-end project's test file in jsdom with `testEnvironment: 'jest-fixed-jsdom'` and no other
// setup: the client signs (TextEncoder), the in-process emulator answers (Request, Response).
import { createClient } from '@x/client';
import { createEmulator, DEFAULT_CUSTOMER } from '@x/emulator';
import { verifyCallback } from '@x/webhooks';
import { createSignedCallback } from '@x/webhooks/testing';

describe('in Jest (CommonJS, jest-fixed-jsdom)', () => {
  test('the environment is a page', () => {
    expect(typeof window.document.createElement).toBe('function');
  });

  test('the client signs and sends an SMS to the in-process emulator, which checks the signature', async () => {
    const emulator = createEmulator();
    const client = createClient({ ...DEFAULT_CUSTOMER, baseUrl: 'http://emulator.local', fetch: emulator.fetch, dangerouslyAllowBrowser: true });
    const { data } = await client.messaging.send({ phoneNumber: '15555551234', message: 'hello from jsdom', messageType: 'ARN' });
    expect(emulator.outbox.latest('15555551234')?.text).toBe('hello from jsdom');
    expect(emulator.journal.list().at(-1)?.verdict).toBe('ok');
    expect(emulator.transactions.get(data.reference_id)).toBeDefined();
    emulator.close();
  });

  test('a signed callback verifies; a tampered one is refused with a reason', async () => {
    const { body, headers } = createSignedCallback('{"reference_id":"0123456789ABCDEF0123456789ABCDEF","status":{"code":200,"description":"Delivered to handset","updated_on":"2026-01-01T00:00:00Z"}}', DEFAULT_CUSTOMER);
    expect((await verifyCallback({ body, headers }, DEFAULT_CUSTOMER)).ok).toBe(true);
    const tampered = await verifyCallback({ body: body.replace('"code":200', '"code":203'), headers }, DEFAULT_CUSTOMER);
    expect(tampered.ok || tampered.reason).toBe('signature_mismatch');
  });
});

// A front-end project's test file (Jest 30, ts-jest, CommonJS, jest-environment-jsdom). The
// imports come first and must work in jsdom as it is: no fetch, Request, Response or TextEncoder.
import { createClient, ConfigurationError } from '@x/client';
import { createEmulator, DEFAULT_CUSTOMER } from '@x/emulator';
import { verifyCallback } from '@x/webhooks';
import { createSignedCallback } from '@x/webhooks/testing';

// Handed over by jsdom-environment.js: Node's own fetch, Request, Response, TextEncoder, ...
declare const nodeWebGlobals: Record<string, unknown>;

beforeAll(() => {
  // After the imports, as a setup file's polyfill would: the fetch family all from Node (jsdom's
  // own Headers and AbortSignal are not the ones Node's Request takes), and TextEncoder.
  for (const [name, value] of Object.entries(nodeWebGlobals)) {
    Object.defineProperty(globalThis, name, { value, configurable: true, writable: true });
  }
});

describe('in Jest (CommonJS, jsdom environment)', () => {
  test('the environment is a page, and createClient refuses without dangerouslyAllowBrowser', () => {
    expect(typeof window.document.createElement).toBe('function');
    expect(() => createClient({ ...DEFAULT_CUSTOMER })).toThrow(ConfigurationError);
  });

  test('the client sends an SMS to the in-process emulator', async () => {
    const emulator = createEmulator();
    const client = createClient({ ...DEFAULT_CUSTOMER, baseUrl: 'http://emulator.local', fetch: emulator.fetch, dangerouslyAllowBrowser: true });
    const { data } = await client.messaging.send({ phoneNumber: '15555551234', message: 'hello from jsdom', messageType: 'ARN' });
    expect(emulator.outbox.latest('15555551234')?.text).toBe('hello from jsdom');
    expect(emulator.transactions.get(data.reference_id)).toBeDefined();
    emulator.close();
  });

  test('a signed callback verifies; a tampered one is refused with a reason', async () => {
    const { body, headers } = createSignedCallback('{"reference_id":"0123456789ABCDEF0123456789ABCDEF","status":{"code":200,"description":"Delivered to handset","updated_on":"2026-01-01T00:00:00Z"}}', DEFAULT_CUSTOMER);
    const ok = await verifyCallback({ body, headers }, DEFAULT_CUSTOMER);
    expect(ok.ok && ok.payload.reference_id).toBe('0123456789ABCDEF0123456789ABCDEF');
    const tampered = await verifyCallback({ body: body.replace('"code":200', '"code":203'), headers }, DEFAULT_CUSTOMER);
    expect(tampered.ok || tampered.reason).toBe('signature_mismatch');
  });
});

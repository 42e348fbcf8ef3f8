// A callback URL with a user name and password (`https://user:pass@host/path`), as the account's
// address or a request's `callback_url`: delivered to the URL without them, with HTTP Basic from
// them (the signature then travels in X-TS-Authorization alone), and the password is masked
// (`user:***@`) in every place the URL is shown: the control routes, events and the event stream,
// the saved state, errors and the CLI's output.
import { callbackSignature } from '@x/auth';
import { describe, expect, it } from 'vitest';
import { createEmulator, DEFAULT_CUSTOMER, type EmulatorEvent } from '../src/index.js';
import { maskCredentials } from '../src/service/url.js';
import { local, startCallbackRecorder } from './helpers.js';

const USER = 'hook-user';
// Percent-encoded in the URL ('@' and ':' must be): sent decoded, as a browser's fetch sends them.
const PASSWORD = 'pa:ss@w0rd-never-shown';
const ENCODED = encodeURIComponent(PASSWORD);
const withCredentials = (url: string) => url.replace('http://', `http://${USER}:${ENCODED}@`);
const basic = (user: string, password: string) => `Basic ${btoa(`${user}:${password}`)}`;

/** No piece of the password, in any spelling, appears in `text`. */
function expectNoPassword(text: string): void {
  for (const secret of [PASSWORD, ENCODED, 'pa:ss', 'w0rd-never', btoa(`${USER}:${PASSWORD}`)]) expect(text).not.toContain(secret);
}

describe('a callback URL with credentials', () => {
  it('is delivered with HTTP Basic from them, to the URL without them; the signature still verifies', async () => {
    const receiver = await startCallbackRecorder();
    const emulator = createEmulator({ deliveryDelayMs: 0, customers: [{ ...DEFAULT_CUSTOMER, callbackUrl: withCredentials(receiver.url) }] });
    try {
      const sent = await local(emulator, 'POST', '/v1/messaging', { form: { phone_number: '15555550180', message: 'x', message_type: 'ARN' } });
      expect(sent.status).toBe(200);
      await emulator.idle();
      expect(receiver.received).toHaveLength(1);
      const [delivery] = receiver.received;
      expect(delivery!.headers.authorization).toBe(basic(USER, PASSWORD));
      expect(delivery!.headers['x-ts-authorization']).toBe(callbackSignature(delivery!.body, DEFAULT_CUSTOMER.apiKey));
      const [attempt] = emulator.callbacks.attempts;
      expect(attempt!.ok).toBe(true);
      expect(attempt!.url).toBe(withCredentials(receiver.url).replace(`:${ENCODED}@`, ':***@'));
    } finally {
      emulator.close();
      await receiver.close();
    }
  });

  it('a request\'s callback_url with credentials, too; and a re-send sends them again', async () => {
    const receiver = await startCallbackRecorder();
    const emulator = createEmulator({ deliveryDelayMs: 0 });
    try {
      await local(emulator, 'POST', '/v1/messaging', { form: { phone_number: '15555550181', message: 'x', message_type: 'ARN', callback_url: withCredentials(receiver.url) } });
      await emulator.idle();
      const again = await emulator.callbacks.resend(emulator.callbacks.attempts[0]!.id);
      expect(again.ok).toBe(true);
      expect(receiver.received.map((r) => r.headers.authorization)).toEqual([basic(USER, PASSWORD), basic(USER, PASSWORD)]);
    } finally {
      emulator.close();
      await receiver.close();
    }
  });

  it('the password appears in no control route, event, stream, saved state or error', async () => {
    const receiver = await startCallbackRecorder({ status: () => 503 });
    const emulator = createEmulator({ deliveryDelayMs: 0, customers: [{ ...DEFAULT_CUSTOMER, callbackUrl: withCredentials(receiver.url) }], callbacks: { retryDelaysMs: [] } });
    const events: EmulatorEvent[] = [];
    emulator.events.subscribe((event) => events.push(event));
    const control = (path: string, init?: RequestInit) => emulator.fetch(`http://emulator.test/_emulator${path}`, init);
    const stream = await control('/events');
    const reader = stream.body!.getReader();
    try {
      const sent = await local(emulator, 'POST', '/v1/messaging', { form: { phone_number: '15555550182', message: 'x', message_type: 'ARN' } });
      await local(emulator, 'POST', '/v1/messaging', { form: { phone_number: '15555550183', message: 'y', message_type: 'ARN', callback_url: withCredentials('http://127.0.0.1:9/refused') } });
      const inbound = await control('/inbound', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ from: '15555550184', to: '15555559999', text: 'hi' }) });
      expect(inbound.status).toBe(202);
      await emulator.idle();
      const id = emulator.callbacks.attempts[0]!.id;
      const shown: string[] = [await inbound.text()];
      for (const path of ['/callbacks', `/callbacks/${id}/raw`, '/transactions', `/transactions/${sent.body.reference_id}`, '/snapshot', '/journal']) {
        const answer = await control(path);
        expect(answer.status).toBe(200);
        shown.push(await answer.text());
      }
      // The event stream, read until the last callback event arrived.
      let streamed = '';
      const decoder = new TextDecoder();
      while ((streamed.match(/event: callback/g) ?? []).length < 3) streamed += decoder.decode((await reader.read()).value);
      shown.push(streamed);
      shown.push(JSON.stringify(events), JSON.stringify(emulator.callbacks.list()), JSON.stringify(emulator.callbacks.attempts), JSON.stringify(emulator.transactions.list()), JSON.stringify(emulator.snapshot()));
      shown.push(JSON.stringify(emulator.inbound({ from: '15555550185', to: '15555559999', text: 'again' })));
      const all = shown.join('\n');
      expectNoPassword(all);
      expect(all).toContain(`${USER}:***@`);
      // The refused one's error names the URL without its password.
      const refused = emulator.callbacks.attempts.find((a) => a.url.includes(':9/refused'))!;
      expect(refused.ok).toBe(false);
      expect(refused.url).toBe(`http://${USER}:***@127.0.0.1:9/refused`);
    } finally {
      await reader.cancel();
      emulator.close();
      await receiver.close();
    }
  });

  it('a saved state keeps no password, and a restored transaction delivers without credentials', async () => {
    const emulator = createEmulator({ deliveryDelayMs: 60_000 });
    try {
      await local(emulator, 'POST', '/v1/messaging', { form: { phone_number: '15555550186', message: 'x', message_type: 'ARN', callback_url: withCredentials('http://127.0.0.1:9/cb') } });
      const text = JSON.stringify(emulator.snapshot());
      expectNoPassword(text);
      const copy = createEmulator();
      try {
        copy.restore(JSON.parse(text));
        expect(copy.transactions.list()[0]!.callbackUrl).toBe('http://127.0.0.1:9/cb');
      } finally {
        copy.close();
      }
    } finally {
      emulator.close();
    }
  });
});

describe('maskCredentials: one function for every URL shown', () => {
  it.each([
    ['http://u:p@h/x', 'http://u:***@h/x'],
    ['https://user:p%40ss@host:8443/cb?q=1', 'https://user:***@host:8443/cb?q=1'],
    ['https://token@host/cb', 'https://***@host/cb'],
    ['https://u:p@ss@host/cb', 'https://u:***@host/cb'],
    ['https://host/cb', 'https://host/cb'],
    ['TypeError: fetch failed for http://a:b@h/ and https://c:d@i/', 'TypeError: fetch failed for http://a:***@h/ and https://c:***@i/'],
    ['http://:secret@h/', 'http://:***@h/'],
  ])('%s -> %s', (input, output) => {
    expect(maskCredentials(input)).toBe(output);
  });
});

// @x/emulator/msw: msw's setupServer sends every request for the service's hosts to an in-process
// emulator, so a client that was never told about the emulator (the official telesignsdk, with its
// default host) talks to it. Nothing leaves the process: with onUnhandledRequest 'error' an
// unmatched request fails, and a host of the service that the handlers leave out fails loudly.
import { createRequire } from 'node:module';
import { signRequest } from '@x/auth';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, EmulatorError, type Emulator } from '../src/index.js';
import { emulatorHandlers, SERVICE_HOSTS } from '../src/msw.js';
import { customer } from './helpers.js';

const require = createRequire(import.meta.url);
const TeleSign = require('telesignsdk');

const promisify = (fn: (cb: (err: unknown, body: any) => void) => void) =>
  new Promise<any>((resolve, reject) => fn((err, body) => (err ? reject(err) : resolve(body))));

let emulator: Emulator;
let mocks: ReturnType<typeof setupServer>;
beforeAll(() => {
  emulator = createEmulator({ deliveryDelayMs: 10 });
  mocks = setupServer(...emulatorHandlers(emulator));
  mocks.listen({ onUnhandledRequest: 'error' });
});
afterEach(() => {
  mocks.resetHandlers();
  emulator.reset();
});
afterAll(() => {
  mocks.close();
  emulator.close();
});

describe('the official telesignsdk with its default host, through msw', () => {
  it('sends an SMS: the emulator answers it and its outbox holds it', async () => {
    const client = new TeleSign(customer.customerId, customer.apiKey); // https://rest-api.telesign.com
    const sent = await promisify((cb) => client.sms.message(cb, '15555550150', 'Hello through msw', 'ARN'));
    expect(sent.status.code).toBe(290);
    expect(emulator.transactions.get(sent.reference_id)?.phoneNumber).toBe('15555550150');
    expect(emulator.outbox.latest('+1 555 555 0150')?.text).toBe('Hello through msw');
    expect(emulator.journal.list({ path: '/v1/messaging' }).map((e) => e.verdict)).toEqual(['ok']);
  });

  it('is refused with a wrong key: the emulator checks the signature it receives through msw', async () => {
    const client = new TeleSign(customer.customerId, 'd3Jvbmcta2V5');
    const body = await promisify((cb) => client.sms.message(cb, '15555550151', 'x', 'ARN'));
    expect(body.status.code).toBe(10008);
    expect(emulator.outbox.list()).toEqual([]);
  });

  it('reaches the emulator on every host of the service (the full-service REST host too)', async () => {
    const client = new TeleSign(customer.customerId, customer.apiKey, SERVICE_HOSTS.restWorldwide);
    const body = await promisify((cb) => client.phoneid.phoneID(cb, '15555550152'));
    expect(body.status.code).toBe(300);
  });
});

describe('hosts the handlers leave out', () => {
  it('a host of the service that is not routed fails loudly, naming the host, and nothing is sent', async () => {
    mocks.use(...emulatorHandlers(emulator, { hosts: [SERVICE_HOSTS.rest] }));
    const response = await fetch(`${SERVICE_HOSTS.verifyApi}/verification`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(500);
    const error = await response.json();
    expect(error.name).toBe('EmulatorError');
    expect(error.message).toContain('https://verify.telesign.com');
    expect(error.message).toContain('hosts option');
    expect(emulator.journal.list()).toEqual([]);
  });

  it('serves a host of your own (a baseUrl of your proxy) when it is listed', async () => {
    mocks.use(...emulatorHandlers(emulator, { hosts: ['https://sms.example.test'] }));
    const client = new TeleSign(customer.customerId, customer.apiKey, 'https://sms.example.test');
    const sent = await promisify((cb) => client.sms.message(cb, '15555550153', 'via my host', 'ARN'));
    expect(sent.status.code).toBe(290);
    expect(emulator.outbox.latest('15555550153')?.text).toBe('via my host');
  });

  it('a dropped connection (fault injection) is a network error, after the SMS was processed', async () => {
    emulator.faults.add({ type: 'drop', method: 'POST' });
    const client = new TeleSign(customer.customerId, customer.apiKey);
    await expect(promisify((cb) => client.sms.message(cb, '15555550154', 'dropped', 'ARN'))).rejects.toBeDefined();
    expect(emulator.outbox.latest('15555550154')?.text).toBe('dropped');
  });
});

describe('other spellings of the service\'s hosts, and paths the emulator does not serve', () => {
  /** A request signed as a client signs it (the signature covers the path, not the host). */
  const signedFetch = (url: string, form: Record<string, string>) => {
    const body = new URLSearchParams(form).toString();
    const { headers } = signRequest({ method: 'POST', url, contentType: 'application/x-www-form-urlencoded', body }, customer);
    return fetch(url, { method: 'POST', headers, body });
  };

  it.each(['https://rest-api.telesign.com.', 'https://REST-API.Telesign.COM.', 'https://rest-api.telesign.com.:443'])('%s (a trailing dot, any case) is the same host: the emulator answers', async (origin) => {
    const response = await signedFetch(`${origin}/v1/messaging`, { phone_number: '15555550156', message: 'trailing dot', message_type: 'ARN' });
    expect(response.status).toBe(200);
    expect(emulator.outbox.latest('15555550156')?.text).toBe('trailing dot');
  });

  it('a trailing-dot host of the service that is not routed fails loudly, never sent', async () => {
    mocks.use(...emulatorHandlers(emulator, { hosts: [SERVICE_HOSTS.rest] }));
    const response = await fetch('https://Verify.Telesign.com./verification', { method: 'POST', body: '{}' });
    expect(response.status).toBe(500);
    expect((await response.json()).message).toMatch(/https:\/\/verify\.telesign\.com\.? is a host of the service that emulatorHandlers does not route/);
    expect(emulator.journal.list()).toEqual([]);
  });

  it('a path the emulator does not emulate is refused loudly with the path, not answered as if the service had none', async () => {
    const response = await signedFetch(`${SERVICE_HOSTS.rest}/v1/messaging-not-here/x?y=1`, { phone_number: '15555550157' });
    expect(response.status).toBe(500);
    const error = await response.json();
    expect(error.name).toBe('EmulatorError');
    expect(error.message).toContain('POST /v1/messaging-not-here/x is not emulated');
    const outside = await signedFetch(`${SERVICE_HOSTS.rest}/v2/anything`, {});
    expect((await outside.json()).message).toContain('POST /v2/anything is not emulated');
    // An operation the emulator knows, with a reference it does not, keeps the service's own 404.
    const unknown = await fetch(`${SERVICE_HOSTS.rest}/v1/messaging/${'A'.repeat(32)}`, { headers: signRequest({ method: 'GET', url: `${SERVICE_HOSTS.rest}/v1/messaging/${'A'.repeat(32)}` }, customer).headers });
    expect(unknown.status).toBe(404);
  });
});

describe('with handlers of your own', () => {
  it('one placed before them answers its route; the emulator sees nothing of it', async () => {
    mocks.use(http.post(`${SERVICE_HOSTS.rest}/v1/messaging`, () => HttpResponse.json({ reference_id: 'F'.repeat(32), status: { code: 290, description: 'mine' } })));
    const client = new TeleSign(customer.customerId, customer.apiKey);
    const sent = await promisify((cb) => client.sms.message(cb, '15555550155', 'to my handler', 'ARN'));
    expect(sent.status.description).toBe('mine');
    expect(emulator.journal.list()).toEqual([]);
  });
});

describe('options', () => {
  it('refuses hosts that are not origins, and an emulator that is not one, with what to pass', () => {
    expect(() => emulatorHandlers(emulator, { hosts: ['https://rest-api.telesign.com/v1'] })).toThrow(/origins such as/);
    expect(() => emulatorHandlers(emulator, { hosts: ['not a url'] })).toThrow(EmulatorError);
    expect(() => emulatorHandlers(emulator, { hosts: [] })).toThrow(/non-empty array/);
    expect(() => emulatorHandlers({} as Emulator)).toThrow(/createEmulator/);
  });
});

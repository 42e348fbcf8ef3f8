// The errors of the client: one model (every error extends XError from @x/auth, with a stable
// code), and messages that say what to do. Real servers on 127.0.0.1: the emulator, a recording
// server, a refused port.
import { DEFAULT_CUSTOMER } from '@x/emulator';
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { XError } from '@x/auth';
import { freePort } from '../../../testing/support.js';
import { AuthenticationError, ClientError, NetworkError, ValidationError, createClient, isClientError, type ClientOptions } from '../src/index.js';
import { createNodeFetch } from '../src/node/index.js';
import { useServers } from './servers.js';

const servers = useServers();

const sms = { phoneNumber: '15555550300', message: 'once', messageType: 'ARN' as const };
const client = (extra: Partial<ClientOptions> = {}) => createClient({ ...DEFAULT_CUSTOMER, baseUrl: servers.emulator.url, retry: false, ...extra });
const failure = (promise: Promise<unknown>) => promise.then(() => expect.fail('expected a failure'), (e: unknown) => e);

describe('authentication errors that teach', () => {
  it('a wrong key: both strings to sign are equal, so the message says the key is wrong, not to diff them', async () => {
    const wrongKey = btoa('a different key');
    const error = (await failure(client({ apiKey: wrongKey }).messaging.send(sms))) as AuthenticationError;
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.stringToSign).toBe(error.serverStringToSign);
    expect(error.reason).toBe('signature_mismatch');
    expect(error.message).toMatch(/same string to sign/);
    expect(error.message).toMatch(/API key/);
    expect(error.message).not.toMatch(/[Cc]ompare|which line differs/);
    expect(error.message).not.toContain(wrongKey);
  });

  it('strings to sign that differ: the message says to compare them, and names the first line that differs', async () => {
    const c = createClient({ ...DEFAULT_CUSTOMER, baseUrl: servers.recorder.url, retry: false });
    servers.recorder.script({
      status: 401,
      body: { status: { code: 10008, description: 'Invalid Signature', updated_on: '2024-01-01T00:00:00Z' }, signature_string: 'POST\napplication/x-www-form-urlencoded\n\nx-ts-auth-method:HMAC-SHA256\n/proxy/v1/messaging' },
    });
    const error = (await failure(c.messaging.send(sms))) as AuthenticationError;
    expect(error.reason).toBe('signature_mismatch');
    expect(error.stringToSign).not.toBe(error.serverStringToSign);
    expect(error.message).toMatch(/error\.stringToSign/);
    expect(error.message).toMatch(/error\.serverStringToSign/);
    // The service's string lacks the x-ts-date line (a proxy dropped the header): both sides are named.
    expect(error.message).toMatch(/line 5 is the first that differs \(here the x-ts-date header, at the service the resource \(path\)\)/);
  });

  it('Basic auth with a wrong key: the reason is invalid_api_key and nothing points at strings to sign (there are none)', async () => {
    const error = (await failure(client({ auth: 'basic', apiKey: btoa('a different key') }).messaging.send(sms))) as AuthenticationError;
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.stringToSign).toBeUndefined();
    expect(error.reason).toBe('invalid_api_key');
    expect(error.message).toMatch(/API key/);
    expect(error.message).not.toMatch(/stringToSign|string to sign/i);
  });

  it('Basic auth with an unknown customer says to check the customer ID, not strings to sign', async () => {
    const error = (await failure(client({ auth: 'basic', customerId: 'AAAAAAAA-0000-0000-0000-000000000000' }).messaging.send(sms))) as AuthenticationError;
    expect(error.reason).toBe('unknown_customer');
    expect(error.message).toMatch(/customer ID/);
    expect(error.message).not.toMatch(/stringToSign|string to sign/i);
  });
});

describe('the message of a signature mismatch never shows a line of the body', () => {
  it('whatever the two strings to sign', () => {
    const line = fc.string({ minLength: 1, maxLength: 40 }).filter((text) => !text.includes('\n'));
    fc.assert(
      fc.property(line, line, (body, other) => {
        fc.pre(body !== other && body.length > 8);
        const ours = `POST\napplication/x-www-form-urlencoded\n\nx-ts-auth-method:HMAC-SHA256\nx-ts-date:Sun, 06 Nov 1994 08:49:37 GMT\n${body}\n/v1/messaging`;
        const theirs = ours.replace(`\n${body}\n`, `\n${other}\n`);
        const error = new AuthenticationError(
          { status: 401, headers: new Headers(), method: 'POST', path: '/v1/messaging', body: { status: { code: 10008, description: 'Invalid Signature' }, signature_string: theirs } },
          ours,
          Date.now(),
        );
        expect(error.message).toContain('line 6 is the first that differs (the body)');
        expect(error.message).not.toContain(body);
      }),
    );
  });
});

describe('explicit undefined means "not given" (options typed for exactOptionalPropertyTypes)', () => {
  it('a contact_match field given as undefined is left out, not refused', async () => {
    const c = client();
    const { data } = await c.phoneId.lookup('15555550100', { addons: { contact_match: { first_name: undefined, last_name: 'Doe' } } });
    expect(data.status.code).toBe(300);
  });

  it('options and parameters given as undefined take their defaults', async () => {
    const c = createClient({ ...DEFAULT_CUSTOMER, baseUrl: servers.emulator.url, retry: undefined, timeoutMs: undefined, userAgent: undefined, logLevel: undefined, fetch: undefined, products: { verifyApi: undefined } });
    const { data } = await c.messaging.send({ ...sms, senderId: undefined, externalId: undefined, callbackUrl: undefined }, { timeoutMs: undefined, retry: undefined });
    expect(data.reference_id).toMatch(/^[0-9A-F]{32}$/);
  });
});

describe('network errors name where they tried', () => {
  it('a refused port: the message names the host and port (global fetch)', async () => {
    const port = await freePort();
    const error = (await failure(client({ baseUrl: `http://127.0.0.1:${port}` }).messaging.send(sms))) as NetworkError;
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toContain(`127.0.0.1:${port}`);
    expect(error.message).toContain('ECONNREFUSED');
  });

  it('a refused port: the same with createNodeFetch', async () => {
    const port = await freePort();
    const error = (await failure(client({ baseUrl: `http://127.0.0.1:${port}/prefix/`, fetch: createNodeFetch() }).messaging.send(sms))) as NetworkError;
    expect(error.message).toContain(`127.0.0.1:${port}`);
    expect(error.host).toBe('127.0.0.1');
    expect(error.port).toBe(port);
  });

  it('the default port of the scheme is named when the URL has none', async () => {
    // A fetch that fails like a refused connection: no server is involved.
    const refuse = () => Promise.reject(new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) }));
    const error = (await failure(client({ baseUrl: 'https://rest-ww.telesign.com', fetch: refuse }).messaging.send(sms))) as NetworkError;
    expect(error.message).toContain('rest-ww.telesign.com:443');
    expect(error.port).toBe(443);
  });
});

describe('one error model', () => {
  it('parameters that are not an object: a ValidationError that says what to pass, nothing sent', async () => {
    const c = client();
    for (const params of [null, undefined, 'phone']) {
      const error = await failure(c.messaging.send(params as never));
      expect(error).toBeInstanceOf(ValidationError);
      expect(error).toMatchObject({ code: 'validation_error', field: 'params' });
      expect((error as Error).message).toMatch(/phoneNumber/);
    }
  });

  it('every client error is an XError with a stable code, and isClientError recognises them', async () => {
    const error = await failure(client({ apiKey: btoa('a different key') }).messaging.send(sms));
    expect(error).toBeInstanceOf(XError);
    expect(error).toBeInstanceOf(ClientError);
    expect(isClientError(error)).toBe(true);
    expect((error as XError).code).toBe('authentication_error');
    expect(isClientError(new Error('x'))).toBe(false);
    expect(isClientError(new XError('other', 'not a client error'))).toBe(false);
    expect(isClientError(undefined)).toBe(false);
  });

  it('instanceof holds across the ESM and CommonJS builds (a dual-package setup)', async () => {
    const esm = (await import(new URL('../dist/index.js', import.meta.url).href)) as typeof import('../src/index.js');
    const cjs = createRequire(import.meta.url)('../dist/index.cjs') as typeof import('../src/index.js');
    const port = await freePort();
    const thrown = await failure(cjs.createClient({ ...DEFAULT_CUSTOMER, baseUrl: `http://127.0.0.1:${port}`, retry: false }).messaging.send(sms));
    expect(thrown).toBeInstanceOf(esm.NetworkError);
    expect(thrown).toBeInstanceOf(esm.ClientError);
    expect(thrown).toBeInstanceOf(NetworkError);
    expect(thrown).toBeInstanceOf(XError);
    expect(esm.isClientError(thrown)).toBe(true);
    // ... and a class never claims another's instances.
    expect(thrown).not.toBeInstanceOf(esm.TimeoutError);
    expect(thrown).not.toBeInstanceOf(cjs.ApiError);
    expect(new esm.ApiError({ status: 500, headers: new Headers(), body: {}, method: 'GET', path: '/' })).not.toBeInstanceOf(cjs.RateLimitError);
  });
});

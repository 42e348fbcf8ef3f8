// Fetches from elsewhere: undici's fetch (the npm package, not Node's bundled copy), and a fetch
// whose Response body is a Node stream (as node-fetch gives). Real servers on 127.0.0.1.
import { DEFAULT_CUSTOMER } from '@x/emulator';
import { startEmulator, type RunningEmulator } from '@x/emulator/node';
import { request as httpRequest, createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthenticationError, createClient, ResponseTooLargeError, type FetchFunction } from '../src/index.js';

let emulator: RunningEmulator;
let big: Server;
let bigUrl: string;
beforeAll(async () => {
  emulator = await startEmulator({ deliveryDelayMs: 10 });
  // Answers every request with a JSON body of the requested size (?bytes=N).
  big = createServer((req, res) => {
    const bytes = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('bytes') ?? 10);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ pad: 'x'.repeat(Math.max(0, bytes - 10)) }));
  });
  await new Promise<void>((resolve) => big.listen(0, '127.0.0.1', resolve));
  bigUrl = `http://127.0.0.1:${(big.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await emulator.close();
  await new Promise((resolve) => big.close(resolve));
});

const sms = { phoneNumber: '15555550300', message: 'hello', messageType: 'ARN' as const };

describe("undici's fetch", () => {
  it('sends a signed SMS and reads its status', async () => {
    const client = createClient({ ...DEFAULT_CUSTOMER, baseUrl: emulator.url, fetch: undiciFetch });
    const sent = await client.messaging.send(sms);
    expect(sent.status).toBe(200);
    const status = await client.messaging.status(sent.data.reference_id);
    expect(status.data.reference_id).toBe(sent.data.reference_id);
    expect(status.headers.get('content-type')).toMatch(/json/);
  });

  it('a 401 is an AuthenticationError with the reason', async () => {
    const client = createClient({ ...DEFAULT_CUSTOMER, apiKey: btoa('a different key'), baseUrl: emulator.url, fetch: undiciFetch, retry: false });
    const error = await client.messaging.send(sms).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).reason).toBe('signature_mismatch');
  });
});

/** A fetch over node:http whose Response body is the Node stream itself (as node-fetch gives). */
const streamFetch: FetchFunction = (input, init) =>
  new Promise((resolve, reject) => {
    const req = httpRequest(input, { method: init.method, headers: init.headers, signal: init.signal }, (res: IncomingMessage) => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') headers.set(name, value);
      resolve({
        status: res.statusCode ?? 0,
        ok: (res.statusCode ?? 0) >= 200 && (res.statusCode ?? 0) < 300,
        url: input,
        headers,
        body: res,
        text: async () => {
          let text = '';
          for await (const chunk of res) text += String(chunk);
          return text;
        },
      });
    });
    req.on('error', reject);
    req.end(init.body);
  });

describe('a Response whose body is a Node stream', () => {
  it('is read to the end', async () => {
    const client = createClient({ ...DEFAULT_CUSTOMER, baseUrl: emulator.url, fetch: streamFetch });
    const sent = await client.messaging.send(sms);
    expect(sent.data.reference_id).toMatch(/^[0-9A-F]{32}$/);
  });

  it('is capped at maxResponseBytes, and the transfer stopped', async () => {
    const client = createClient({ ...DEFAULT_CUSTOMER, baseUrl: bigUrl, fetch: streamFetch, maxResponseBytes: 1_000, retry: false });
    expect((await client.request<{ pad: string }>({ method: 'GET', path: '/x', query: { bytes: '900' } })).data.pad).toHaveLength(890);
    await expect(client.request({ method: 'GET', path: '/x', query: { bytes: '200000' } })).rejects.toBeInstanceOf(ResponseTooLargeError);
  });
});

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { nodeMac } from '@x/auth/node';
import { DEFAULT_CUSTOMER } from '@x/emulator';
import { startEmulator, type RunningEmulator } from '@x/emulator/node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient, NetworkError, TimeoutError } from '../src/index.js';
import { createNodeFetch } from '../src/node/index.js';
import { freePort, selfSignedCertificate } from '../../../testing/support.js';

let server: RunningEmulator;
beforeAll(async () => {
  server = await startEmulator({ deliveryDelayMs: 10 });
});
afterAll(() => server.close());

describe('createNodeFetch', () => {
  const nodeFetch = createNodeFetch();

  it('runs every kind of call of the client against the emulator', async () => {
    const client = createClient({ ...DEFAULT_CUSTOMER, baseUrl: server.url, fetch: nodeFetch, mac: nodeMac });
    const sent = await client.messaging.send({ phoneNumber: '15555550700', message: 'x', messageType: 'ARN' });
    expect(sent.data.status.code).toBe(290);
    expect(sent.headers.get('content-type')).toBe('application/json');
    const pid = await client.phoneId.lookup('15555550701');
    expect(pid.data.status.code).toBe(300);
    await expect(client.messaging.status('0123456789ABCDEF0123456789ABCDEF')).rejects.toMatchObject({ status: 404, serviceCode: 10017 });
  });

  it('answers standard Responses (read once, as any fetch\'s): text, JSON, bytes, stream and clone', async () => {
    const response = await nodeFetch(`${server.url}/v2/nothing`);
    expect(response).toBeInstanceOf(Response);
    expect(response.status).toBe(404);
    expect(response.ok).toBe(false);
    expect(response.headers.get('content-type')).toBe('application/json');
    const [copy, bytes, stream] = [response.clone(), response.clone(), response.clone()];
    const text = await response.text();
    expect(JSON.parse(text).status.code).toBe(-40004);
    expect(await copy.json()).toEqual(JSON.parse(text));
    expect(new TextDecoder().decode(await bytes.arrayBuffer())).toBe(text);
    expect(await new Response(stream.body).text()).toBe(text);
    await expect(response.text()).rejects.toThrow(TypeError);
  });

  it('is a view of the client\'s Node sender: a client given it makes no Response, a direct call makes one', async () => {
    // A plain node:http server (the emulator makes Responses of its own).
    const plain = createServer((req, res) => req.resume().on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"reference_id":"R","status":{"code":300,"description":"ok"}}')));
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`;
    let made = 0;
    const Standard = globalThis.Response;
    vi.stubGlobal('Response', class extends Standard {
      constructor(...args: ConstructorParameters<typeof Response>) {
        super(...args);
        made++;
      }
    });
    try {
      const client = createClient({ ...DEFAULT_CUSTOMER, baseUrl: url, fetch: nodeFetch });
      expect((await client.phoneId.lookup('15555550701')).data.status.code).toBe(300);
      expect(made).toBe(0);
      expect((await nodeFetch(`${url}/v1/phoneid/15555550701`)).status).toBe(200);
      expect(made).toBe(1);
    } finally {
      vi.unstubAllGlobals();
      await new Promise((resolve) => plain.close(resolve));
    }
  });

  it('rejects with the connection error code, so a refused POST is retried as not sent', async () => {
    const port = await freePort();
    const attempts: number[] = [];
    const client = createClient({ ...DEFAULT_CUSTOMER, baseUrl: `http://127.0.0.1:${port}`, fetch: nodeFetch, retry: { retries: 1, minDelayMs: 1 }, hooks: { onRequest: (e) => attempts.push(e.attempt) } });
    const error = await client.messaging.send({ phoneNumber: '15555550702', message: 'x', messageType: 'ARN' }).catch((e) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ sent: false });
    expect(attempts).toEqual([1, 2]);
  });

  it('is aborted by the client timeout', async () => {
    server.emulator.faults.add({ type: 'latency', ms: 1_000 });
    const client = createClient({ ...DEFAULT_CUSTOMER, baseUrl: server.url, fetch: nodeFetch, timeoutMs: 50, retry: false });
    await expect(client.voice.status('0123456789ABCDEF0123456789ABCDEF')).rejects.toBeInstanceOf(TimeoutError);
  });

  it('sends the byte length of the body, once, whatever length the caller wrote', async () => {
    const seen: Array<{ lengths: string[]; body: string }> = [];
    const echo = createServer((req, res) => {
      const names = req.rawHeaders.flatMap((value, i) => (i % 2 === 0 && value.toLowerCase() === 'content-length' ? [req.rawHeaders[i + 1]!] : []));
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        seen.push({ lengths: names, body });
        res.end('{}');
      });
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(echo.address() as AddressInfo).port}/`;
    try {
      const given: HeadersInit[] = [{ 'Content-Length': '999' }, { 'content-length': '1' }, new Headers({ 'content-length': '2' }), {}];
      for (const headers of given) {
        expect((await nodeFetch(url, { method: 'POST', headers, body: 'héllo ✓' })).status).toBe(200);
      }
    } finally {
      await new Promise((resolve) => echo.close(resolve));
    }
    expect(seen).toEqual(Array.from({ length: 4 }, () => ({ lengths: ['10'], body: 'héllo ✓' })));
  });

  it('refuses a body that is not a string', async () => {
    await expect(nodeFetch(`${server.url}/v1/voice`, { method: 'POST', body: new Uint8Array([1]) })).rejects.toThrow(/string bodies/);
  });

  it('speaks HTTPS with a given certificate authority', async () => {
    const { key, cert } = selfSignedCertificate();
    const secure = await startEmulator({ tls: { key, cert } });
    try {
      const client = createClient({ ...DEFAULT_CUSTOMER, baseUrl: secure.url, fetch: createNodeFetch({ tls: { ca: cert } }) });
      expect((await client.voice.call({ phoneNumber: '15555550703', message: 'x', messageType: 'ARN' })).data.status.code).toBe(103);
    } finally {
      await secure.close();
    }
  });
});

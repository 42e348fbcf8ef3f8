// On Node, the client needs no options: the `node` export conditions give it node:crypto's HMAC
// (@x/auth's `#hashes`) and the node:http keep-alive sender (`#platform`). Observed through real
// parts: a server on 127.0.0.1 (which socket each request came on), node:crypto itself (its
// createHmac is wrapped and the wrapper counted), and `#platform` resolved by Node under each
// runtime's condition.
import { execFile, spawnSync } from 'node:child_process';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { prepareMac } from '@x/auth';
import { nodeMac } from '@x/auth/node';
import { createClient } from '@x/client';

const credentials = { customerId: 'FFFFFFFF-EEEE-DDDD-1234-AB1234567890', apiKey: 'ABC12345yusumoN6BYsBVkh+yRJ5czgsnCehZaOYldPJdmFh6NeX8kunZ2zU1YWaUw/0wV6xfw==' };
const SMS = { phoneNumber: '15555551234', message: 'hello', messageType: 'OTP' as const };
const ANSWER = JSON.stringify({ reference_id: 'A'.repeat(32), status: { code: 290, description: 'Message in progress' } });

let server: Server;
let baseUrl: string;
/** Per request: the client's port (one port = one connection) and the request's headers. */
const seen: Array<{ port: number; headers: Record<string, unknown> }> = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ port: req.socket.remotePort!, headers: req.headers });
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(ANSWER));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => {
  seen.length = 0;
  vi.unstubAllGlobals();
});

describe('the default transport on Node', () => {
  it('is node:http: the global fetch is never called, and requests reuse one keep-alive connection', async () => {
    const globalFetch = vi.fn(globalThis.fetch);
    vi.stubGlobal('fetch', globalFetch);
    const client = createClient({ ...credentials, baseUrl });
    for (let i = 0; i < 5; i++) expect((await client.messaging.send(SMS)).data).toEqual(JSON.parse(ANSWER));
    expect(globalFetch).not.toHaveBeenCalled();
    expect(seen).toHaveLength(5);
    expect(new Set(seen.map((s) => s.port)).size).toBe(1);
    // What undici's fetch adds to every request; node:http sends only the client's headers.
    expect(seen[0]!.headers['sec-fetch-mode']).toBeUndefined();
  });

  it('an explicit fetch is used exactly as before', async () => {
    const given = vi.fn(globalThis.fetch);
    const client = createClient({ ...credentials, baseUrl, fetch: given });
    await client.messaging.send(SMS);
    await client.messaging.send(SMS);
    expect(given).toHaveBeenCalledTimes(2);
    expect(given.mock.calls[0]![1]).toMatchObject({ method: 'POST', redirect: 'manual' });
    // The global fetch (undici) says so in its headers: the given fetch really sent them.
    expect(seen[0]!.headers['sec-fetch-mode']).toBe('cors');
  });

  it('the headers of an answer are a WHATWG Headers, as with fetch', async () => {
    const answer = await createClient({ ...credentials, baseUrl }).messaging.send(SMS);
    expect(answer.headers).toBeInstanceOf(Headers);
    expect(answer.headers.get('Content-Type')).toBe('application/json');
    expect([...answer.headers.keys()]).toContain('content-type');
  });

  it("signs with node:crypto's createHmac (@x/auth's choice by export condition) unless a mac is given", async () => {
    const crypto = createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
    // node:crypto's Hmac, one per signature, spied on before the client prepares its key.
    const original = crypto.createHmac;
    let native = 0;
    crypto.createHmac = ((...args: Parameters<typeof original>) => {
      native++;
      return original(...args);
    }) as typeof original;
    syncBuiltinESMExports();
    try {
      await createClient({ ...credentials, baseUrl }).messaging.send(SMS);
      expect(native).toBe(1);
      native = 0;
      let custom = 0;
      const mac: typeof nodeMac = (algorithm, key) => {
        const sign = nodeMac(algorithm, key);
        return (parts) => (custom++, sign(parts));
      };
      await createClient({ ...credentials, baseUrl, mac }).messaging.send(SMS);
      expect(custom).toBe(1);
    } finally {
      crypto.createHmac = original;
      syncBuiltinESMExports();
    }
  });

  it('takes the same options as on any runtime: HMAC-SHA1 needs enableSha1() or a mac with it, on Node too', () => {
    expect(() => createClient({ ...credentials, baseUrl, algorithm: 'HMAC-SHA1' })).toThrow(
      expect.objectContaining({ code: 'configuration_error', cause: expect.objectContaining({ code: 'algorithm_not_enabled' }) }),
    );
    expect(() => createClient({ ...credentials, baseUrl, algorithm: 'HMAC-SHA1', mac: prepareMac })).not.toThrow();
  });
});

describe('the keep-alive pool of the default transport', () => {
  it('never keeps a process alive: a script that sent two requests exits while the server holds the connection', async () => {
    server.keepAliveTimeout = 60_000;
    const output = await new Promise<string>((resolve) => {
      execFile(process.execPath, [fileURLToPath(new URL('./fixtures/default-exit.mjs', import.meta.url))], { encoding: 'utf8', env: { ...process.env, X_TEST_BASE_URL: baseUrl } }, (_error, stdout, stderr) => resolve(stdout + stderr));
    });
    expect(output.trim()).toBe('sent');
    expect(seen).toHaveLength(2);
    expect(new Set(seen.map((s) => s.port)).size).toBe(1);
  });

  it('closes a socket left idle in the pool (the server sees the connection end), and opens a new one after', async () => {
    server.keepAliveTimeout = 60_000;
    const closed = new Promise<void>((resolve) => server.once('connection', (socket) => socket.once('close', () => resolve())));
    const client = createClient({ ...credentials, baseUrl });
    await client.messaging.send(SMS);
    await closed;
    await client.messaging.send(SMS);
    expect(seen).toHaveLength(2);
    expect(seen[0]!.port).not.toBe(seen[1]!.port);
  });
});

describe('#platform under each runtime\'s export condition', () => {
  const probe = (file: string, condition: string | undefined) => {
    const args = [...(condition ? [`--conditions=${condition}`] : []), fileURLToPath(new URL(`./fixtures/${file}`, import.meta.url))];
    const run = spawnSync(process.execPath, args, { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    const { sender, keys } = JSON.parse(run.stdout) as { sender: boolean; keys: string[] };
    expect(keys).toEqual(['createSender']);
    return { sender };
  };

  for (const file of ['platform-probe.mjs', 'platform-probe.cjs']) {
    it(`${file}: Node gets the node:http sender (and no HMAC: @x/auth chooses that)`, () => {
      expect(probe(file, undefined)).toEqual({ sender: true });
    });

    // Deno and Bun match `node` too: their own conditions come first and keep them portable.
    it.each(['deno', 'bun', 'workerd', 'worker', 'edge-light', 'react-native', 'browser'])(`${file}: %s stays portable (the global fetch)`, (condition) => {
      expect(probe(file, condition)).toEqual({ sender: false });
    });
  }
});

// A hostile or broken network: paths that try to leave baseUrl, redirects to another origin,
// endless bodies. Real HTTP servers on 127.0.0.1; fetch spies only where a property needs many runs.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type ClientOptions } from '../src/index.js';
import { createNodeFetch } from '../src/node/index.js';

const credentials = { customerId: 'FFFFFFFF-EEEE-DDDD-1234-AB1234567890', apiKey: 'c2VjcmV0LWtleS1ieXRlcw==' };
const SMS = { phoneNumber: '15555550900', message: 'once', messageType: 'ARN' as const };
const SUCCESS = JSON.stringify({ reference_id: 'A'.repeat(32), status: { code: 290, description: 'Message in progress', updated_on: '2024-01-01T00:00:00Z' } });

interface Recorded {
  method: string;
  url: string;
  host: string | undefined;
  authorization: string | undefined;
  body: string;
}

interface TestServer {
  url: string;
  port: number;
  requests: Recorded[];
  close(): Promise<void>;
}

/** A server on 127.0.0.1 that records every request (with its body) before answering. */
async function serve(answer: (req: IncomingMessage, res: ServerResponse, body: string) => void): Promise<TestServer> {
  const requests: Recorded[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method!, url: req.url!, host: req.headers.host, authorization: req.headers.authorization, body });
      answer(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const json = (res: ServerResponse, status: number, body: string) => {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
};

/** A fetch that ignores `redirect: 'manual'` and follows, as some wrappers and polyfills do. */
const followingFetch: typeof fetch = (input, init) => globalThis.fetch(input, { ...init, redirect: 'follow' });

/** Every way a request goes out: the default (node:http on Node), the global fetch, createNodeFetch. */
const fetches: Array<[string, () => typeof fetch | undefined]> = [
  ['the default transport', () => undefined],
  ['the global fetch', () => globalThis.fetch],
  ['createNodeFetch', () => createNodeFetch()],
];

describe('redirects are never followed (item 4)', () => {
  let other: TestServer;
  let service: TestServer;
  let status = 307;
  beforeAll(async () => {
    other = await serve((_req, res) => json(res, 200, SUCCESS));
    service = await serve((req, res) => {
      res.writeHead(status, { location: `${other.url}${req.url}`, 'content-length': 0 });
      res.end();
    });
  });
  afterAll(async () => {
    await other.close();
    await service.close();
  });
  afterEach(() => {
    other.requests.length = 0;
    service.requests.length = 0;
  });

  for (const code of [307, 308]) {
    for (const [name, make] of fetches) {
      for (const auth of ['digest', 'basic'] as const) {
        it(`${code} to another origin with ${name} (${auth}): RedirectError, the other server receives nothing`, async () => {
          status = code;
          const client = createClient({ ...credentials, auth, baseUrl: service.url, fetch: make(), retry: { retries: 2, minDelayMs: 1 } });
          const error = await client.messaging.send(SMS).catch((e: unknown) => e);
          expect(error).toMatchObject({ name: 'RedirectError', code: 'redirect', status: code, location: `${other.url}/v1/messaging`, followed: false });
          expect(other.requests).toHaveLength(0);
          expect(service.requests).toHaveLength(1);
          expect(String(error)).not.toContain(credentials.apiKey);
        });
      }
    }

    it(`${code} with an injected fetch that follows anyway: the answer is refused, the SMS is not sent again`, async () => {
      status = code;
      const client = createClient({ ...credentials, baseUrl: service.url, fetch: followingFetch, retry: { retries: 2, minDelayMs: 1 } });
      const error = await client.messaging.send(SMS).catch((e: unknown) => e);
      // The injected fetch re-posted the body itself (no client can unsend that), but its answer is
      // not taken for a success, and the client does not send a second time.
      expect(error).toMatchObject({ name: 'RedirectError', code: 'redirect', followed: true });
      expect(service.requests).toHaveLength(1);
      expect(other.requests).toHaveLength(1);
    });
  }

  it('a GET is not retried after a redirect, with any fetch', async () => {
    status = 308;
    for (const make of [...fetches.map(([, m]) => m), () => followingFetch]) {
      service.requests.length = 0;
      const client = createClient({ ...credentials, baseUrl: service.url, fetch: make(), retry: { retries: 2, minDelayMs: 1 } });
      await expect(client.voice.status('B'.repeat(32))).rejects.toMatchObject({ name: 'RedirectError' });
      expect(service.requests).toHaveLength(1);
    }
  });

  it("asks every fetch for redirect: 'manual'", async () => {
    const modes: Array<RequestRedirect | undefined> = [];
    const spy: typeof fetch = async (_input, init) => {
      modes.push(init?.redirect);
      return new Response(SUCCESS, { status: 200, headers: { 'content-type': 'application/json' } });
    };
    await createClient({ ...credentials, fetch: spy }).messaging.send(SMS);
    expect(modes).toEqual(['manual']);
  });

  it("a browser's opaque redirect (status 0) is a RedirectError", async () => {
    const opaque: typeof fetch = async () => {
      const response = new Response(null, { status: 200 });
      Object.defineProperties(response, { type: { value: 'opaqueredirect' }, status: { value: 0 }, ok: { value: false } });
      return response;
    };
    await expect(createClient({ ...credentials, fetch: opaque }).messaging.send(SMS)).rejects.toMatchObject({ name: 'RedirectError', status: 0, followed: false });
  });

  it('an answer whose url is on another origin is refused, even without the redirected flag', async () => {
    const elsewhere: typeof fetch = async () => {
      const response = new Response(SUCCESS, { status: 200, headers: { 'content-type': 'application/json' } });
      Object.defineProperty(response, 'url', { value: 'https://elsewhere.test/v1/messaging' });
      return response;
    };
    await expect(createClient({ ...credentials, fetch: elsewhere }).messaging.send(SMS)).rejects.toMatchObject({ name: 'RedirectError', followed: true });
  });
});

describe('responses are capped (item 5)', () => {
  const CAP = 256 * 1024;
  const CEILING = 96 * 1024 * 1024; // the server stops there, so a client without a cap still ends
  let endless: TestServer;
  const state = { written: 0, aborted: false, finished: Promise.resolve() };
  let declareLength = false;

  beforeAll(async () => {
    endless = await serve((_req, res) => {
      state.written = 0;
      state.aborted = false;
      state.finished = new Promise<void>((resolve) => {
        res.on('close', () => {
          state.aborted = !res.writableFinished;
          resolve();
        });
      });
      res.writeHead(200, { 'content-type': 'application/json', ...(declareLength ? { 'content-length': String(CEILING) } : {}) });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (!res.destroyed && state.written < CEILING) {
          state.written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        if (!res.destroyed) res.end();
      };
      pump();
    });
  });
  afterAll(() => endless.close());
  afterEach(() => {
    endless.requests.length = 0;
  });

  for (const [name, make] of fetches) {
    for (const declared of [false, true]) {
      it(`an endless body with ${name}${declared ? ' (Content-Length announced)' : ''}: ResponseTooLargeError, connection aborted, bounded`, async () => {
        declareLength = declared;
        const options = { ...credentials, baseUrl: endless.url, fetch: make(), timeoutMs: 60_000, retry: { retries: 2, minDelayMs: 1 }, maxResponseBytes: CAP } as ClientOptions;
        const error = await createClient(options).voice.status('C'.repeat(32)).catch((e: unknown) => e);
        expect(error).toMatchObject({ name: 'ResponseTooLargeError', code: 'response_too_large', limitBytes: CAP, status: 200 });
        await state.finished;
        expect(state.aborted).toBe(true);
        // What the server could push before the client hung up: the cap plus socket buffers, far
        // from the ceiling that an unbounded reader would take in full.
        expect(state.written).toBeLessThan(CAP + 24 * 1024 * 1024);
        // Not retried, even for a GET: the answer is not going to shrink.
        expect(endless.requests).toHaveLength(1);
      });
    }
  }

  it('a small compressed body that inflates past the cap (the default transport and the global fetch inflate it): ResponseTooLargeError', async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20));
    const zipped = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': bomb.length });
      res.end(bomb);
    });
    try {
      expect(bomb.length).toBeLessThan(CAP);
      for (const fetch of [undefined, globalThis.fetch]) {
        const client = createClient({ ...credentials, baseUrl: zipped.url, fetch, retry: false, maxResponseBytes: CAP } as ClientOptions);
        await expect(client.voice.status('C'.repeat(32))).rejects.toMatchObject({ name: 'ResponseTooLargeError', limitBytes: CAP });
      }
    } finally {
      await zipped.close();
    }
  });

  it('a compressed answer is read inflated by the default transport, as by the global fetch', async () => {
    const zipped = await serve((_req, res) => {
      const body = gzipSync(Buffer.from(SUCCESS));
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': body.length });
      res.end(body);
    });
    try {
      for (const fetch of [undefined, globalThis.fetch]) {
        const client = createClient({ ...credentials, baseUrl: zipped.url, fetch, retry: false } as ClientOptions);
        expect((await client.voice.status('C'.repeat(32))).data).toEqual(JSON.parse(SUCCESS));
      }
    } finally {
      await zipped.close();
    }
  });

  it("a HEAD answer's Content-Length is not a body: not too large, with either fetch", async () => {
    const head = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(CEILING) });
      res.end();
    });
    try {
      for (const [, make] of fetches) {
        const client = createClient({ ...credentials, baseUrl: head.url, fetch: make(), retry: false, maxResponseBytes: CAP } as ClientOptions);
        // An empty answer: not JSON, so invalid_response; what matters is that it is not refused as too large.
        await expect(client.request({ method: 'HEAD', path: '/v1/x' })).rejects.toMatchObject({ code: 'invalid_response', status: 200 });
      }
    } finally {
      await head.close();
    }
  });

  it('a body at the cap is read; one byte more is not', async () => {
    const body = JSON.stringify({ reference_id: 'D'.repeat(32), padding: 'x'.repeat(100) });
    const exact: typeof fetch = async () => new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
    const at = createClient({ ...credentials, fetch: exact, maxResponseBytes: body.length } as ClientOptions);
    expect((await at.request<{ reference_id: string }>({ method: 'GET', path: '/v1/x' })).data.reference_id).toBe('D'.repeat(32));
    const below = createClient({ ...credentials, fetch: exact, maxResponseBytes: body.length - 1 } as ClientOptions);
    await expect(below.request({ method: 'GET', path: '/v1/x' })).rejects.toMatchObject({ name: 'ResponseTooLargeError', limitBytes: body.length - 1 });
  });
});

describe('paths never leave baseUrl (item 3)', () => {
  const ATTACKS = [
    '//evil.test/v1/messaging',
    '/\\evil.test/v1/messaging',
    '/\\/evil.test/',
    '/\t/evil.test/',
    '/\n/evil.test/',
    '/\r\n/evil.test',
    '/%2F%2Fevil.test/',
    '/%5Cevil.test/',
    '/..//evil.test/',
    '/../../v1/messaging',
    '/v1/../../x',
    '/%2e%2e/x',
    '/.%2E/x',
    '/%2E./x',
    '/v1/%2e%2e/%2e%2e/x',
    '/v1/./x',
    '/v1\\..\\..\\x',
    '//user:pass@evil.test/',
    '/v1/messaging?to=evil',
    '/v1/messaging#frag',
    '/v1/x y',
    '/v1/é',
    ' //evil.test/',
    '/\u0000/x',
  ];
  const BASES = ['https://api.test', 'https://api.test/', 'https://api.test/prefix', 'https://api.test/prefix/', 'http://127.0.0.1:8080/a/b/'];

  /** Everything the fetch is asked for, and how many requests were signed. */
  function spy(baseUrl: string, auth: 'digest' | 'basic' = 'digest') {
    const urls: string[] = [];
    let signed = 0;
    const fetch: typeof globalThis.fetch = async (input) => {
      urls.push(String(input instanceof Request ? input.url : input));
      return new Response(SUCCESS, { status: 200, headers: { 'content-type': 'application/json' } });
    };
    const client = createClient({ ...credentials, auth, baseUrl, fetch, retry: false, now: () => (signed++, new Date()), hooks: { onRequest: () => void signed++ } });
    return { client, urls, signed: () => signed };
  }
  const under = (baseUrl: string) => {
    const base = new URL(baseUrl);
    return { origin: base.origin, prefix: base.pathname.replace(/\/$/, '') + '/' };
  };

  it('property: for any path, a ValidationError before signing, or a URL under the origin and path of baseUrl', async () => {
    const fragment = fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom('/', '//', '\\', '/\\', '.', '..', '/..', '%2e', '%2E', '%2f', '%2F', '%5c', '%5C', '%', '%0', '@', ':', '?', '#', '\t', '\n', '\r', ' ', '\u0000', 'evil.test', 'http:', 'https://evil.test', 'v1', 'messaging', '\uFF0F', '\u3002', '\u2024', '\u00A0', ';', '&', '=') },
      { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 6 }) },
      { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 4 }) },
    );
    const path = fc.tuple(fc.constantFrom('/', '//', '/\\', '', '\t/', ' /'), fc.array(fragment, { maxLength: 10 })).map(([head, parts]) => head + parts.join(''));
    await fc.assert(
      fc.asyncProperty(path, fc.constantFrom(...BASES), fc.constantFrom('digest' as const, 'basic' as const), async (p, baseUrl, auth) => {
        const { client, urls, signed } = spy(baseUrl, auth);
        const error = await client.request({ method: 'POST', path: p, form: { a: 'b' } }).then(() => undefined, (e: unknown) => e);
        if (error !== undefined) {
          expect(error).toMatchObject({ name: 'ValidationError', field: 'path' });
          expect(urls).toEqual([]);
          expect(signed()).toBe(0);
          return;
        }
        const { origin, prefix } = under(baseUrl);
        expect(urls).toHaveLength(1);
        const sent = new URL(urls[0]!);
        expect(sent.origin).toBe(origin);
        expect(sent.username + sent.password).toBe('');
        expect(sent.pathname.startsWith(prefix)).toBe(true);
        // The path is sent as given: nothing the URL parser rewrote, no query or fragment smuggled.
        expect(sent.pathname).toBe(prefix.slice(0, -1) + p);
        expect(sent.search + sent.hash).toBe('');
      }),
      { numRuns: 1_500 },
    );
  });

  it.each(ATTACKS)('rejects %j before signing, with every base', async (p) => {
    for (const baseUrl of BASES) {
      const { client, urls, signed } = spy(baseUrl);
      await expect(client.request({ method: 'GET', path: p })).rejects.toMatchObject({ name: 'ValidationError', field: 'path' });
      expect(urls).toEqual([]);
      expect(signed()).toBe(0);
    }
  });

  it.each([
    ['/v1/messaging', 'https://api.test', 'https://api.test/v1/messaging'],
    ['/v1/messaging', 'https://api.test/prefix', 'https://api.test/prefix/v1/messaging'],
    ['/v1/messaging', 'https://api.test/prefix/', 'https://api.test/prefix/v1/messaging'],
    ['/v1/verify/completion/ABC', 'https://api.test/', 'https://api.test/v1/verify/completion/ABC'],
    ['/v1/a:b@c;d=e', 'https://api.test', 'https://api.test/v1/a:b@c;d=e'],
    // "@" after a single leading "/" is a path character, not user info: the host stays.
    ['/@evil.test/x', 'https://api.test', 'https://api.test/@evil.test/x'],
    ['/v1/x%20y/%C3%A9', 'https://api.test', 'https://api.test/v1/x%20y/%C3%A9'],
    ['/v1/file.json/..x/.hidden', 'https://api.test', 'https://api.test/v1/file.json/..x/.hidden'],
    ['/', 'https://api.test/prefix/', 'https://api.test/prefix/'],
  ])('accepts %j under %s', async (p, baseUrl, expected) => {
    const { client, urls } = spy(baseUrl);
    await client.request({ method: 'GET', path: p, query: { q: '/../x?#' } });
    const sent = new URL(urls[0]!);
    expect(sent.origin + sent.pathname).toBe(expected);
    expect(sent.searchParams.get('q')).toBe('/../x?#');
  });

  it.each(['https://user:pass@api.test', 'ftp://api.test', 'https://api.test/?x=1', 'https://api.test/#f'])('refuses baseUrl %s', (baseUrl) => {
    expect(() => createClient({ ...credentials, baseUrl })).toThrow(expect.objectContaining({ name: 'ConfigurationError' }) as Error);
  });

  describe('against real servers', () => {
    let service: TestServer;
    let other: TestServer;
    beforeAll(async () => {
      service = await serve((_req, res) => json(res, 200, SUCCESS));
      other = await serve((_req, res) => json(res, 200, SUCCESS));
    });
    afterAll(async () => {
      await service.close();
      await other.close();
    });

    it.each([
      ['//', ''],
      ['/\\', ''],
      ['/\\\\', ''],
      ['/\t/', ''],
      ['/\n/', ''],
      ['//user:pass@', ''],
    ])('%j + the other host: nothing reaches either server (global fetch and createNodeFetch, digest and Basic)', async (head, tail) => {
      const target = `${head}127.0.0.1:${other.port}/v1/messaging${tail}`;
      for (const [, make] of fetches) {
        for (const auth of ['digest', 'basic'] as const) {
          const client = createClient({ ...credentials, auth, baseUrl: `${service.url}/`, fetch: make(), retry: false });
          await expect(client.request({ method: 'POST', path: target, form: { message: 'x' } })).rejects.toMatchObject({ name: 'ValidationError', field: 'path' });
        }
      }
      expect(other.requests).toEqual([]);
      expect(service.requests).toEqual([]);
    });
  });
});

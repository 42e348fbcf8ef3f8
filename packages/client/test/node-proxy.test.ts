// createNodeFetch through a real proxy on 127.0.0.1 (node:http, written here): CONNECT tunnels to an
// HTTPS target (the emulator with a throwaway certificate), absolute-URI requests to an HTTP
// target (the recording server, which verifies every signature), HTTPS_PROXY / HTTP_PROXY /
// NO_PROXY from the environment, proxy credentials, a refused tunnel, a dead proxy.
import { nodeMac } from '@x/auth/node';
import { DEFAULT_CUSTOMER } from '@x/emulator';
import { startEmulator, type RunningEmulator } from '@x/emulator/node';
import fc from 'fast-check';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient, NetworkError } from '../src/index.js';
import { createNodeFetch } from '../src/node/index.js';
import { bypasses, parseNoProxy } from '../src/node/proxy.js';
import { freePort, selfSignedCertificate } from '../../../testing/support.js';
import { startRecordingServer, type RecordingServer } from './recording-server.js';

interface TestProxy {
  url: string;
  /** Targets of the CONNECTs it tunnelled (or refused), `host:port`. */
  connects: string[];
  /** Absolute URIs it forwarded. */
  forwards: string[];
  /** Proxy-Authorization of every CONNECT and forward, as received. */
  authorizations: Array<string | undefined>;
  /** Answer CONNECTs with this status instead of tunnelling. */
  refuseWith: number | undefined;
  close(): Promise<void>;
}

async function startProxy(): Promise<TestProxy> {
  const sockets = new Set<Socket>();
  const state: TestProxy = { url: '', connects: [], forwards: [], authorizations: [], refuseWith: undefined, close: async () => {} };
  const server: Server = createServer((req, res) => {
    // An absolute-URI request: forward it, minus the proxy's own header.
    state.forwards.push(req.url ?? '');
    state.authorizations.push(req.headers['proxy-authorization']);
    const { 'proxy-authorization': _auth, ...headers } = req.headers;
    const upstream = httpRequest(req.url!, { method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on('connect', (req, client: Socket, head: Buffer) => {
    sockets.add(client);
    state.connects.push(req.url ?? '');
    state.authorizations.push(req.headers['proxy-authorization']);
    if (state.refuseWith) {
      client.end(`HTTP/1.1 ${state.refuseWith} Refused\r\ncontent-length: 0\r\n\r\n`);
      return;
    }
    const [host, port] = (req.url ?? '').split(':');
    const target = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) target.write(head);
      target.pipe(client);
      client.pipe(target);
    });
    sockets.add(target);
    target.on('error', () => client.destroy());
    client.on('error', () => target.destroy());
  });
  server.on('connection', (socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return state;
}

const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy', 'REQUEST_METHOD'] as const;
const saved = Object.fromEntries(PROXY_VARIABLES.map((name) => [name, process.env[name]]));
function setEnv(values: Partial<Record<(typeof PROXY_VARIABLES)[number], string>>): void {
  for (const name of PROXY_VARIABLES) delete process.env[name];
  Object.assign(process.env, values);
}

let proxy: TestProxy;
let secure: RunningEmulator;
let plain: RecordingServer;
let cert: Buffer;
beforeAll(async () => {
  const tls = selfSignedCertificate();
  cert = tls.cert;
  [proxy, secure, plain] = await Promise.all([startProxy(), startEmulator({ tls }), startRecordingServer([DEFAULT_CUSTOMER])]);
});
afterAll(() => Promise.all([proxy.close(), secure.close(), plain.close()]));
afterEach(() => {
  for (const name of PROXY_VARIABLES) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  proxy.connects.length = 0;
  proxy.forwards.length = 0;
  proxy.authorizations.length = 0;
  proxy.refuseWith = undefined;
  plain.reset();
});

const httpsTarget = () => new URL(secure.url).host;
const secureClient = (fetch: typeof globalThis.fetch, extra = {}) => createClient({ ...DEFAULT_CUSTOMER, baseUrl: secure.url, fetch, mac: nodeMac, ...extra });
const call = (client: ReturnType<typeof createClient>) => client.voice.call({ phoneNumber: '15555550704', message: 'x', messageType: 'ARN' });

describe('an HTTPS target through a CONNECT tunnel', () => {
  it('with the proxy option: one CONNECT, kept alive across requests', async () => {
    const client = secureClient(createNodeFetch({ proxy: proxy.url, tls: { ca: cert } }));
    for (let i = 0; i < 3; i++) expect((await call(client)).data.status.code).toBe(103);
    expect(proxy.connects).toEqual([httpsTarget()]);
    expect(proxy.forwards).toEqual([]);
  });

  it('verifies the target certificate through the tunnel: without the CA, refused', async () => {
    const client = secureClient(createNodeFetch({ proxy: proxy.url }), { retry: false });
    await expect(call(client)).rejects.toMatchObject({ code: 'network_error', message: expect.stringMatching(/SELF_SIGNED|certificate/i) });
    expect(proxy.connects).toEqual([httpsTarget()]);
  });

  it('from HTTPS_PROXY in the environment', async () => {
    setEnv({ HTTPS_PROXY: proxy.url });
    const client = secureClient(createNodeFetch({ tls: { ca: cert } }));
    expect((await call(client)).data.status.code).toBe(103);
    expect(proxy.connects).toEqual([httpsTarget()]);
  });

  it('NO_PROXY bypasses it: the request goes directly', async () => {
    for (const noProxy of ['127.0.0.1', 'example.com, 127.0.0.0/8', `127.0.0.1:${new URL(secure.url).port}`, '*']) {
      setEnv({ HTTPS_PROXY: proxy.url, NO_PROXY: noProxy });
      expect((await call(secureClient(createNodeFetch({ tls: { ca: cert } })))).data.status.code).toBe(103);
    }
    setEnv({ HTTPS_PROXY: proxy.url, NO_PROXY: '127.0.0.1:1' });
    expect((await call(secureClient(createNodeFetch({ tls: { ca: cert } })))).data.status.code).toBe(103);
    expect(proxy.connects).toEqual([httpsTarget()]);
  });

  it('explicit options win: proxy: false, and noProxy over NO_PROXY', async () => {
    setEnv({ HTTPS_PROXY: proxy.url });
    await call(secureClient(createNodeFetch({ proxy: false, tls: { ca: cert } })));
    expect(proxy.connects).toEqual([]);
    setEnv({ HTTPS_PROXY: proxy.url, NO_PROXY: '*' });
    await call(secureClient(createNodeFetch({ noProxy: [], tls: { ca: cert } })));
    expect(proxy.connects).toEqual([httpsTarget()]);
  });

  it('sends the credentials of the proxy URL to the proxy only, and never puts them in an error', async () => {
    const withCredentials = proxy.url.replace('http://', 'http://svc-user:p%40ss-w0rd@');
    const client = secureClient(createNodeFetch({ proxy: withCredentials, tls: { ca: cert } }), { retry: { retries: 1, minDelayMs: 1 } });
    expect((await call(client)).data.status.code).toBe(103);
    expect(proxy.authorizations).toEqual([`Basic ${Buffer.from('svc-user:p@ss-w0rd').toString('base64')}`]);

    proxy.refuseWith = 407;
    const error = await call(createClient({ ...DEFAULT_CUSTOMER, baseUrl: secure.url, fetch: createNodeFetch({ proxy: withCredentials, tls: { ca: cert } }), retry: false })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    const text = `${String(error)} ${String((error as Error).cause)} ${String(((error as Error).cause as Error).cause)}`;
    expect(text).toContain('refused a tunnel');
    expect(text).not.toMatch(/p%40ss|p@ss|svc-user/);
  });

  it('a refused tunnel is a NetworkError that provably never left: an SMS is retried, the target never sees it', async () => {
    proxy.refuseWith = 403;
    const before = secure.emulator.outbox.list().length;
    const client = secureClient(createNodeFetch({ proxy: proxy.url, tls: { ca: cert } }), { retry: { retries: 1, minDelayMs: 1 } });
    const error = await client.messaging.send({ phoneNumber: '15555550705', message: 'x', messageType: 'ARN' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ sent: false });
    expect((error as Error).message).toContain(`ERR_PROXY_TUNNEL`);
    expect(String((error as Error).cause)).toContain(`the proxy 127.0.0.1:${new URL(proxy.url).port} refused a tunnel to ${httpsTarget()}: HTTP 403`);
    expect(proxy.connects).toEqual([httpsTarget(), httpsTarget()]);
    expect(secure.emulator.outbox.list().length).toBe(before);
  });

  it('a proxy that is down: ECONNREFUSED, never sent', async () => {
    const client = secureClient(createNodeFetch({ proxy: `http://127.0.0.1:${await freePort()}`, tls: { ca: cert } }), { retry: false });
    await expect(call(client)).rejects.toMatchObject({ code: 'network_error', sent: false, message: expect.stringContaining('ECONNREFUSED') });
  });
});

describe('an HTTP target through the proxy (absolute-URI requests)', () => {
  const plainClient = (fetch: typeof globalThis.fetch) => createClient({ ...DEFAULT_CUSTOMER, baseUrl: plain.url, fetch, retry: false });

  it('from HTTP_PROXY: the proxy forwards the full URL, the target verifies the signature', async () => {
    setEnv({ HTTP_PROXY: proxy.url, HTTPS_PROXY: 'http://127.0.0.1:1' });
    await plainClient(createNodeFetch()).messaging.send({ phoneNumber: '15555550706', message: 'through the proxy', messageType: 'ARN' });
    expect(proxy.forwards).toEqual([`${plain.url}/v1/messaging`]);
    expect(proxy.connects).toEqual([]);
    expect(plain.requests).toHaveLength(1);
    expect(plain.requests[0]).toMatchObject({ method: 'POST', path: '/v1/messaging', auth: { ok: true } });
    expect(plain.requests[0]!.headers.host).toBe(new URL(plain.url).host);
  });

  it('with proxy credentials, and NO_PROXY', async () => {
    await plainClient(createNodeFetch({ proxy: proxy.url.replace('http://', 'http://u:pw@') })).messaging.status('0123456789ABCDEF0123456789ABCDEF');
    expect(proxy.authorizations).toEqual([`Basic ${Buffer.from('u:pw').toString('base64')}`]);
    setEnv({ HTTP_PROXY: proxy.url, NO_PROXY: 'localhost,127.0.0.1' });
    await plainClient(createNodeFetch()).messaging.status('0123456789ABCDEF0123456789ABCDEF');
    expect(proxy.forwards).toHaveLength(1);
    expect(plain.requests).toHaveLength(2);
  });

  it('under CGI (REQUEST_METHOD set), HTTP_PROXY is ignored (httpoxy); http_proxy still counts', async () => {
    setEnv({ HTTP_PROXY: proxy.url, REQUEST_METHOD: 'GET' });
    await plainClient(createNodeFetch()).messaging.status('0123456789ABCDEF0123456789ABCDEF');
    expect(proxy.forwards).toEqual([]);
    setEnv({ http_proxy: proxy.url, REQUEST_METHOD: 'GET' });
    await plainClient(createNodeFetch()).messaging.status('0123456789ABCDEF0123456789ABCDEF');
    expect(proxy.forwards).toHaveLength(1);
  });
});

describe('the default transport on Node (no fetch given) routes like createNodeFetch', () => {
  const defaultClient = () => createClient({ ...DEFAULT_CUSTOMER, baseUrl: plain.url, retry: false });

  it('HTTP_PROXY: through the proxy, signature verified by the target; NO_PROXY: directly', async () => {
    setEnv({ HTTP_PROXY: proxy.url });
    await defaultClient().messaging.send({ phoneNumber: '15555550706', message: 'through the proxy', messageType: 'ARN' });
    expect(proxy.forwards).toEqual([`${plain.url}/v1/messaging`]);
    expect(plain.requests[0]).toMatchObject({ method: 'POST', path: '/v1/messaging', auth: { ok: true } });
    setEnv({ HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' });
    await defaultClient().messaging.status('0123456789ABCDEF0123456789ABCDEF');
    expect(proxy.forwards).toHaveLength(1);
    expect(plain.requests).toHaveLength(2);
  });

  it('a dead proxy from the environment: a NetworkError naming the proxy, never sent', async () => {
    const port = await freePort();
    setEnv({ HTTP_PROXY: `http://127.0.0.1:${port}` });
    const error = await defaultClient().messaging.send({ phoneNumber: '15555550706', message: 'x', messageType: 'ARN' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ sent: false, port });
    expect(plain.requests).toHaveLength(0);
  });

  it('HTTPS: the certificate is verified (a self-signed one is refused)', async () => {
    const client = createClient({ ...DEFAULT_CUSTOMER, baseUrl: secure.url, retry: false });
    await expect(call(client)).rejects.toMatchObject({ code: 'network_error', message: expect.stringMatching(/SELF_SIGNED|certificate/i) });
  });

  it('HTTPS with the CA trusted: directly, and through a CONNECT tunnel from HTTPS_PROXY', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'x-client-ca-'));
    writeFileSync(join(dir, 'ca.pem'), cert);
    // The emulator and the proxy run in this process: the child is awaited, not waited for synchronously.
    const run = (extra: Record<string, string>) => {
      const env: Record<string, string | undefined> = { ...process.env, NODE_EXTRA_CA_CERTS: join(dir, 'ca.pem'), X_TEST_CUSTOMER: JSON.stringify(DEFAULT_CUSTOMER), X_TEST_BASE_URL: secure.url, ...extra };
      for (const name of PROXY_VARIABLES) if (!(name in extra)) delete env[name];
      return new Promise<unknown>((resolve) => {
        execFile(process.execPath, [fileURLToPath(new URL('./fixtures/default-https.mjs', import.meta.url))], { encoding: 'utf8', env, cwd: fileURLToPath(new URL('..', import.meta.url)) }, (_error, stdout, stderr) => {
          resolve(stdout ? JSON.parse(stdout) : { stderr });
        });
      });
    };
    expect(await run({})).toEqual({ code: 103 });
    expect(proxy.connects).toEqual([]);
    expect(await run({ HTTPS_PROXY: proxy.url })).toEqual({ code: 103 });
    expect(proxy.connects).toEqual([httpsTarget()]);
  });

  it('an unusable HTTPS_PROXY is a ConfigurationError at createClient, without its value', () => {
    setEnv({ HTTPS_PROXY: 'socks5://u:hunter2@proxy.internal:1080' });
    expect(defaultClient).toThrow(expect.objectContaining({ name: 'ConfigurationError', code: 'configuration_error' }) as Error);
    expect(String((() => { try { defaultClient(); } catch (e) { return e; } })())).not.toContain('hunter2');
  });
});

describe('proxy configuration', () => {
  it('refuses an unusable proxy when the fetch is created, naming where it came from, never its value', () => {
    setEnv({ HTTPS_PROXY: 'socks5://user:hunter2@127.0.0.1:1080' });
    expect(() => createNodeFetch()).toThrow(/^HTTPS_PROXY is a socks5: proxy; the client speaks to HTTP\(S\) proxies only/);
    try {
      createNodeFetch();
    } catch (error) {
      expect(String(error)).not.toContain('hunter2');
    }
    setEnv({});
    expect(() => createNodeFetch({ proxy: 'http://[nope' })).toThrow(/^proxy is not a URL/);
    expect(() => createNodeFetch({ proxy: 'proxy.internal:3128' })).not.toThrow();
  });

  it('the portable build never imports the proxy agent nor node:*; the Node entry and the Node platform do', () => {
    const dist = (name: string) => new URL(`../dist/${name}`, import.meta.url);
    /** A built file and the chunks it imports, recursively (ESM builds share code through chunks). */
    const closure = (name: string, seen = new Set<string>()): string => {
      if (seen.has(name)) return '';
      seen.add(name);
      const text = readFileSync(dist(name), 'utf8');
      const chunks = [...text.matchAll(/from\s*["']\.\/([^"']+)["']|require\(["']\.\/([^"']+)["']\)/g)].map((m) => m[1] ?? m[2]!);
      return text + chunks.map((chunk) => closure(chunk, seen)).join('');
    };
    expect(existsSync(dist('index.js')), 'build @x/client first (pnpm turbo run build)').toBe(true);
    for (const core of ['index.js', 'index.cjs', 'platform.js', 'platform.cjs']) expect(closure(core)).not.toMatch(/https-proxy-agent|node:/);
    for (const node of ['node.js', 'node.cjs', 'platform-node.js', 'platform-node.cjs']) expect(closure(node)).toContain('https-proxy-agent');
    // One set of types under every condition: the public declarations never name the platform module.
    for (const types of ['index.d.ts', 'index.d.cts']) expect(readFileSync(dist(types), 'utf8')).not.toContain('#platform');
  });
});

describe('NO_PROXY matching', () => {
  const url = (host: string, port = '') => new URL(`https://${host}${port ? `:${port}` : ''}/v1/x`);
  const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?$/);
  const domain = fc.array(label, { minLength: 1, maxLength: 3 }).map((labels) => `${labels.join('.')}.test`);

  it('a domain covers itself and its subdomains, in every spelling, and nothing that only ends like it', () => {
    fc.assert(
      fc.property(domain, label, label, (d, sub, other) => {
        for (const entry of [d, `.${d}`, `*.${d}`, d.toUpperCase(), `${d}.`]) {
          const rules = parseNoProxy(entry);
          expect(bypasses(rules, url(d))).toBe(true);
          expect(bypasses(rules, url(`${sub}.${d}`))).toBe(true);
          expect(bypasses(rules, url(`${other}${d}`))).toBe(false);
        }
      }),
    );
  });

  it('a port narrows an entry to that port (the default port of the scheme counts)', () => {
    fc.assert(
      fc.property(domain, fc.integer({ min: 1, max: 65535 }), fc.integer({ min: 1, max: 65535 }), (d, port, other) => {
        const rules = parseNoProxy(`${d}:${port}`);
        expect(bypasses(rules, url(d, String(port)))).toBe(true);
        expect(bypasses(rules, url(d, String(other)))).toBe(other === port);
      }),
    );
    expect(bypasses(parseNoProxy('api.test:443'), url('api.test'))).toBe(true);
  });

  it('IPv4 CIDR ranges, IPv6 addresses, lists and *', () => {
    const rules = parseNoProxy(' 10.0.0.0/8 , [::1], 2001:db8::1 192.168.1.7');
    expect(bypasses(rules, url('10.200.3.4'))).toBe(true);
    expect(bypasses(rules, url('11.0.0.1'))).toBe(false);
    expect(bypasses(rules, url('[::1]'))).toBe(true);
    expect(bypasses(rules, url('[2001:0db8:0:0:0:0:0:1]'))).toBe(true);
    expect(bypasses(rules, url('192.168.1.7'))).toBe(true);
    expect(bypasses(rules, url('192.168.1.8'))).toBe(false);
    expect(bypasses(parseNoProxy('*'), url('anything.example'))).toBe(true);
    expect(bypasses(parseNoProxy(''), url('anything.example'))).toBe(false);
    fc.assert(
      fc.property(fc.ipV4(), fc.integer({ min: 0, max: 32 }), (ip, bits) => {
        const n = ip.split('.').reduce((a, p) => a * 256 + Number(p), 0);
        const inside = (x: number) => bits === 0 || Math.floor(x / 2 ** (32 - bits)) === Math.floor(n / 2 ** (32 - bits));
        const probe = (n + 2 ** Math.max(0, 31 - bits)) % 2 ** 32;
        const dotted = [24, 16, 8, 0].map((s) => Math.floor(probe / 2 ** s) % 256).join('.');
        expect(bypasses(parseNoProxy(`${ip}/${bits}`), url(ip))).toBe(true);
        expect(bypasses(parseNoProxy(`${ip}/${bits}`), url(dotted))).toBe(inside(probe));
      }),
    );
  });
});

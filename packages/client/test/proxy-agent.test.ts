// The proxy agent is loaded only when a proxy applies, and is not a dependency: a project without
// it gets a ConfigurationError that says how to install it, and nothing is sent. Unusable proxy
// URLs are refused at createClient without a socket; a proxy that resets connections ends a
// request as a NetworkError, never the process. Real servers on 127.0.0.1 count connections.
import { DEFAULT_CUSTOMER } from '@x/emulator';
import { startEmulator, type RunningEmulator } from '@x/emulator/node';
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConfigurationError, createClient, NetworkError } from '../src/index.js';
import { createNodeFetch } from '../src/node/index.js';
import { selfSignedCertificate } from '../../../testing/support.js';

const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy'] as const;
const saved = Object.fromEntries(PROXY_VARIABLES.map((name) => [name, process.env[name]]));

/** A TCP server that counts connections and resets each one at once (or holds it). */
async function startTcp(behaviour: 'reset' | 'hold'): Promise<{ url: string; connections: number; close(): Promise<void> }> {
  const state = { url: '', connections: 0, close: async () => {} };
  const held = new Set<Socket>();
  const server: Server = createServer((socket) => {
    state.connections++;
    if (behaviour === 'reset') return void socket.resetAndDestroy();
    held.add(socket.on('error', () => {}));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of held) socket.destroy();
      server.close(() => resolve());
    });
  return state;
}

let resetting: Awaited<ReturnType<typeof startTcp>>;
let holding: Awaited<ReturnType<typeof startTcp>>;
let secure: RunningEmulator;
let plain: HttpServer;
let plainUrl: string;
let cert: Buffer;
beforeAll(async () => {
  const tls = selfSignedCertificate();
  cert = tls.cert;
  plain = createHttpServer((req, res) => req.resume().on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"reference_id":"R","status":{"code":290,"description":"ok"}}')));
  await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
  plainUrl = `http://127.0.0.1:${(plain.address() as { port: number }).port}`;
  [resetting, holding, secure] = await Promise.all([startTcp('reset'), startTcp('hold'), startEmulator({ tls })]);
});
afterAll(() => Promise.all([resetting.close(), holding.close(), secure.close(), new Promise((resolve) => plain.close(resolve))]));
afterEach(() => {
  for (const name of PROXY_VARIABLES) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  holding.connections = 0;
  resetting.connections = 0;
});

const sms = { phoneNumber: '15555550704', message: 'x', messageType: 'ARN' as const };
const thrown = (run: () => unknown): unknown => {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
};
/** Everything an error shows: message, string, JSON and its causes. */
const shown = (error: unknown) => {
  const parts: string[] = [];
  for (let e = error, i = 0; e && i < 5; e = (e as { cause?: unknown }).cause, i++) parts.push(String(e), JSON.stringify(e) ?? '', (e as Error).stack ?? '');
  return parts.join('\n');
};

describe('an unusable proxy URL is refused at createClient, without a socket and without its password', () => {
  const bad = (base: string) => [base.replace('http://', 'http://svc:50%off@'), base.replace('http://', 'http://svc%zz:pw@'), base.replace('http://', 'socks5://svc:hunter2@')];

  it.each(['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY'] as const)('from %s', async (name) => {
    for (const value of bad(holding.url)) {
      process.env[name] = value;
      const error = thrown(() => createClient({ ...DEFAULT_CUSTOMER, baseUrl: secure.url }));
      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as Error).message).toMatch(new RegExp(`^${name} `));
      expect(shown(error)).not.toMatch(/50%off|hunter2|svc/);
    }
    expect(holding.connections).toBe(0);
  });

  it('from the proxy option', () => {
    for (const value of bad(holding.url)) {
      const error = thrown(() => createNodeFetch({ proxy: value }));
      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as Error).message).toMatch(/^proxy /);
      expect(shown(error)).not.toMatch(/50%off|hunter2|svc/);
    }
    expect((thrown(() => createNodeFetch({ proxy: holding.url.replace('http://', 'http://svc:50%off@') })) as Error).message).toMatch(/write a literal % as %25/);
    expect(holding.connections).toBe(0);
  });

  it('a password with a literal % written as %25 is sent decoded', async () => {
    const fetch = createNodeFetch({ proxy: resetting.url.replace('http://', 'http://svc:50%25off@') });
    await expect(createClient({ ...DEFAULT_CUSTOMER, baseUrl: plainUrl, fetch, retry: false }).messaging.send(sms)).rejects.toBeInstanceOf(NetworkError);
    expect(resetting.connections).toBe(1);
  });
});

describe('a proxy that resets the connection', () => {
  it.each([
    ['an https target (CONNECT)', () => secure.url],
    ['an http target (absolute URI)', () => plainUrl],
  ])('%s: a NetworkError, the process keeps running', async (_label, target) => {
    const client = createClient({ ...DEFAULT_CUSTOMER, baseUrl: target(), fetch: createNodeFetch({ proxy: resetting.url.replace('http://', 'http://svc:pw@'), tls: { ca: cert } }), retry: false });
    const error = await client.messaging.send(sms).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ code: 'network_error' });
    expect((error as Error).message).toMatch(/ECONNRESET|socket hang up/);
    expect(shown(error)).not.toContain('svc:pw');
    expect(resetting.connections).toBe(1);
  });
});

describe('in a project (the built package, in fresh processes)', () => {
  const here = fileURLToPath(new URL('.', import.meta.url));
  let project: string;
  beforeAll(() => {
    // @x/client copied (without its dev dependencies) next to its dependencies @x/auth and
    // @x/service: no https-proxy-agent to find.
    project = mkdtempSync(join(tmpdir(), 'x-client-no-agent-'));
    const modules = join(project, 'node_modules', '@x');
    mkdirSync(join(modules, 'client'), { recursive: true });
    cpSync(join(here, '..', 'dist'), join(modules, 'client', 'dist'), { recursive: true });
    cpSync(join(here, '..', 'package.json'), join(modules, 'client', 'package.json'));
    for (const dependency of ['auth', 'service']) symlinkSync(join(here, '..', '..', dependency), join(modules, dependency), 'dir');
    for (const fixture of ['proxy-agent-probe.mjs', 'proxy-agent-probe.cjs', 'proxy-agent-run.cjs']) cpSync(join(here, 'fixtures', fixture), join(project, fixture));
  });
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  const probe = (file: string, cwd: string, env: Record<string, string>) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      // No NODE_PATH (package managers' runners set one that would find the workspace's agent).
      const clean: Record<string, string | undefined> = { ...process.env, X_TEST_CUSTOMER: JSON.stringify(DEFAULT_CUSTOMER), ...env };
      for (const name of PROXY_VARIABLES) if (!(name in env)) delete clean[name];
      for (const name of ['NODE_PATH', 'NODE_EXTRA_CA_CERTS']) delete clean[name];
      execFile(process.execPath, [join(cwd, file)], { encoding: 'utf8', env: clean, cwd, timeout: 8_000 }, (error, stdout, stderr) => {
        if (error || !stdout) reject(new Error(`${file}: ${stderr || error?.message}`));
        else resolve(JSON.parse(stdout));
      });
    });

  for (const file of ['proxy-agent-probe.mjs', 'proxy-agent-probe.cjs']) {
    it(`${file}: without a proxy, the agent is never loaded`, async () => {
      expect(await probe(file, join(here, 'fixtures'), { X_TEST_BASE_URL: plainUrl })).toEqual({ code: 290, agent: false });
    });

    it(`${file}: a proxy for an https target loads the installed agent (https-proxy-agent 7 from CommonJS too)`, async () => {
      const result = await probe(file, join(here, 'fixtures'), { X_TEST_BASE_URL: secure.url, HTTPS_PROXY: resetting.url });
      expect(result).toMatchObject({ name: 'NetworkError', agent: true });
      expect(resetting.connections).toBe(1);
    });

    it(`${file}: without the agent installed, a proxied https send is a ConfigurationError saying what to install; nothing is opened`, async () => {
      const result = await probe(file, project, { X_TEST_BASE_URL: secure.url, HTTPS_PROXY: holding.url });
      expect(result).toMatchObject({ name: 'ConfigurationError', code: 'configuration_error', agent: false });
      expect(result.message).toContain('npm i https-proxy-agent');
      expect(holding.connections).toBe(0);
      // An http target needs no agent: it goes to the proxy as an absolute-URI request.
      expect(await probe(file, project, { X_TEST_BASE_URL: plainUrl, HTTP_PROXY: resetting.url })).toMatchObject({ name: 'NetworkError', agent: false });
      expect(resetting.connections).toBe(1);
    });
  }
});

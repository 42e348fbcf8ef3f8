// Item 6: browser clients. CORS on the service routes is opt-in (`cors: true`, `--cors`); when it
// is off, a preflight gets a body that says so. Checked with raw requests over HTTP and from a real
// headless Chromium page on another origin signing with the BUILT @x/auth.
import { signRequest } from '@x/auth';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../src/index.js';
import { startEmulator, type RunningEmulator } from '../src/node.js';
import { customer } from './helpers.js';

const ORIGIN = 'http://localhost:5173';
const preflight = (url: string, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'OPTIONS', headers: { origin: ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type, x-ts-date, x-ts-nonce, x-ts-auth-method', ...headers } });

describe('CORS off (the default)', () => {
  let server: RunningEmulator;
  const warnings: string[] = [];
  const logger: Logger = { error: () => undefined, warn: (message) => void warnings.push(message) };
  beforeAll(async () => {
    server = await startEmulator({ logger });
  });
  afterAll(() => server.close());

  it('a preflight gets 403 with a message that says to start with --cors, and the log says it once per origin', async () => {
    const response = await preflight(`${server.url}/v1/messaging`);
    expect(response.status).toBe(403);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    const body = (await response.json()) as { error: string; code: string };
    expect(body.code).toBe('cors_disabled');
    expect(body.error).toContain('--cors');
    await preflight(`${server.url}/v1/verify/sms`);
    expect(warnings.filter((w) => w.includes(ORIGIN))).toHaveLength(1);
    expect(warnings[0]).toMatch(/--cors/);
  });

  it('answers carry no CORS header', async () => {
    const url = `${server.url}/v1/voice`;
    const response = await fetch(url, { headers: { ...signRequest({ method: 'GET', url }, customer).headers, origin: ORIGIN } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('CORS on', () => {
  let server: RunningEmulator;
  beforeAll(async () => {
    server = await startEmulator({ cors: true });
  });
  afterAll(() => server.close());

  it('a preflight of a service route: 204, the methods, the signing headers (X-TS-* too), not others', async () => {
    const response = await preflight(`${server.url}/v1/messaging`, { 'access-control-request-headers': 'authorization, content-type, x-ts-date, x-ts-nonce, x-ts-custom-thing, x-evil' });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    const allowed = response.headers.get('access-control-allow-headers')!.split(', ');
    expect(allowed).toEqual(expect.arrayContaining(['authorization', 'content-type', 'x-ts-date', 'x-ts-nonce', 'x-ts-auth-method', 'x-ts-custom-thing']));
    expect(allowed).not.toContain('x-evil');
  });

  it('answers (success and 401) carry the origin and expose Date and Retry-After', async () => {
    const url = `${server.url}/v1/voice`;
    const ok = await fetch(url, { headers: { ...signRequest({ method: 'GET', url }, customer).headers, origin: ORIGIN } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(ok.headers.get('access-control-expose-headers')).toMatch(/Date.*Retry-After/);
    const refused = await fetch(url, { headers: { origin: ORIGIN } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    // The journal still knows the answers' service codes.
    expect(server.emulator.journal.list({ path: '/v1/voice' }).map((e) => [e.status, e.serviceCode])).toEqual([[200, undefined], [401, 10008]]);
  });

  it('the control routes stay closed to other origins', async () => {
    const response = await fetch(`${server.url}/_emulator/outbox`, { headers: { origin: 'https://app.example' } });
    expect(response.status).toBe(403);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    const control = await fetch(`${server.url}/_emulator/faults`, { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' } });
    expect(control.status).toBe(403);
    expect(control.headers.get('access-control-allow-origin')).toBeNull();
  });
});

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const auth = fileURLToPath(new URL('../../auth/dist/index.js', import.meta.url));

// In CI a missing Chromium is a failure, never a skip.
describe.skipIf(!existsSync(chromium) && !process.env.CI)('a real page on another origin, signing with @x/auth', () => {
  it('cannot call the emulator without --cors; can with it (and reads Date)', async () => {
    expect(existsSync(auth), 'build @x/auth first (pnpm turbo run build)').toBe(true);
    const { build } = await import('esbuild');
    const source = `
      import { signRequest } from ${JSON.stringify(auth)};
      export async function send(base, account) {
        const url = base + '/v1/messaging';
        const body = new URLSearchParams({ phone_number: '15555550700', message: 'from a page', message_type: 'ARN' }).toString();
        const { headers } = signRequest({ method: 'POST', url, contentType: 'application/x-www-form-urlencoded', body }, account);
        try {
          const response = await fetch(url, { method: 'POST', headers, body });
          return { status: response.status, date: response.headers.get('date'), code: (await response.json()).status.code };
        } catch (error) {
          return { failed: String(error) };
        }
      }`;
    const bundle = await build({ stdin: { contents: source, resolveDir: fileURLToPath(new URL('..', import.meta.url)), loader: 'js' }, bundle: true, format: 'esm', platform: 'browser', write: false });
    const page = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>a front end</title>'));
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    const pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/`;
    const closed = await startEmulator();
    const open = await startEmulator({ cors: true });
    const { chromium: launcher } = await import('playwright-core');
    const browser = await launcher.launch({ executablePath: chromium, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
    try {
      const tab = await browser.newPage();
      await tab.goto(pageUrl);
      const run = (base: string) =>
        tab.evaluate(`(async () => {
          const url = URL.createObjectURL(new Blob([${JSON.stringify(bundle.outputFiles[0]!.text)}], { type: 'text/javascript' }));
          const { send } = await import(url);
          return send(${JSON.stringify(base)}, ${JSON.stringify(customer)});
        })()`) as Promise<{ status?: number; date?: string | null; code?: number; failed?: string }>;
      const refused = await run(closed.url);
      expect(refused.failed).toMatch(/TypeError/);
      // The browser stopped at the preflight: nothing was sent.
      expect(closed.emulator.outbox.list()).toEqual([]);
      expect(closed.emulator.journal.list().map((e) => [e.method, e.status])).toEqual([['OPTIONS', 403]]);
      const sent = await run(open.url);
      expect(sent).toMatchObject({ status: 200, code: 290 });
      expect(Number.isNaN(Date.parse(sent.date ?? ''))).toBe(false);
      expect(open.emulator.outbox.list().map((m) => m.text)).toEqual(['from a page']);
    } finally {
      await browser.close();
      await closed.close();
      await open.close();
      await new Promise<void>((resolve) => page.close(() => resolve()));
    }
  });
});

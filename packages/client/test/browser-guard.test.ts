// The browser guard: createClient refuses in a web page unless dangerouslyAllowBrowser; Deno,
// workers, Bun and Node are not pages; signing stays usable everywhere. Checked in a real headless
// Chromium (Debian's, through playwright-core) with the BUILT client, and in Node with the
// globals a page has (window with a document, navigator) for the cases Chromium cannot be.
import { signRequest } from '@x/auth';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigurationError, createClient } from '../src/index.js';

const account = { customerId: 'EEEEEEEE-1111-2222-3333-444444444444', apiKey: Buffer.from('a key that must stay on the server').toString('base64') };

const GLOBALS = ['window', 'navigator'] as const;
const saved = Object.fromEntries(GLOBALS.map((name) => [name, Object.getOwnPropertyDescriptor(globalThis, name)]));
afterEach(() => {
  for (const name of GLOBALS) {
    if (saved[name]) Object.defineProperty(globalThis, name, saved[name]!);
    else delete (globalThis as Record<string, unknown>)[name];
  }
});

function define(globals: { window?: unknown; navigator?: unknown }): void {
  for (const name of GLOBALS) {
    if (name in globals) Object.defineProperty(globalThis, name, { value: globals[name], configurable: true, writable: true });
    else delete (globalThis as Record<string, unknown>)[name];
  }
}

function recorder() {
  const urls: string[] = [];
  const fetch = (async (input: RequestInfo | URL) => {
    urls.push(String(input));
    return new Response('{"reference_id":"0123456789ABCDEF0123456789ABCDEF","status":{"code":290,"description":"x","updated_on":"x"}}', { status: 200, headers: { 'content-type': 'application/json' } });
  }) as typeof globalThis.fetch;
  return { urls, fetch };
}

const page = { window: { document: {} }, navigator: { userAgent: 'Mozilla/5.0' } };

describe('createClient in a page (window.document and navigator)', () => {
  it('refuses, says why and how to opt in, and sends nothing', () => {
    define(page);
    const r = recorder();
    let error: unknown;
    try {
      createClient({ ...account, fetch: r.fetch });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigurationError);
    const message = (error as Error).message;
    expect(message).toMatch(/refuses to run in a browser: every visitor could read the API key/);
    expect(message).toContain('dangerouslyAllowBrowser: true');
    expect(message).not.toContain(account.apiKey);
    expect(r.urls).toEqual([]);
  });

  it('refuses before looking for credentials in the environment', () => {
    define(page);
    expect(() => createClient()).toThrow(/refuses to run in a browser/);
  });

  it('runs when the caller opts in explicitly', async () => {
    define(page);
    const r = recorder();
    const client = createClient({ ...account, fetch: r.fetch, dangerouslyAllowBrowser: true });
    expect((await client.messaging.send({ phoneNumber: '15555550100', message: 'x', messageType: 'ARN' })).data.status.code).toBe(290);
    expect(r.urls).toHaveLength(1);
    expect(() => createClient({ ...account, fetch: r.fetch, dangerouslyAllowBrowser: 'yes' as never })).toThrow(/refuses to run in a browser/);
  });

  it('signing helpers stay usable in a page without any opt-in', () => {
    define(page);
    const signed = signRequest({ method: 'GET', url: 'https://api.example/v1/messaging/x' }, account);
    expect(signed.headers.authorization).toMatch(new RegExp(`^TSA ${account.customerId}:`));
  });
});

describe('not a page', () => {
  const cases: Array<[string, { window?: unknown; navigator?: unknown }]> = [
    ['Node 20 (neither)', {}],
    ['a worker, Deno 2, Bun, Node 21+ (navigator, no window)', { navigator: { userAgent: 'Cloudflare-Workers' } }],
    ['Deno 1 (window without a document)', { window: {}, navigator: {} }],
    ['a DOM shim without navigator', { window: { document: {} } }],
  ];
  for (const [name, globals] of cases) {
    it(name, () => {
      define(globals);
      expect(() => createClient({ ...account, fetch: recorder().fetch })).not.toThrow();
    });
  }
});

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const built = fileURLToPath(new URL('../dist/index.js', import.meta.url));

// In CI a missing Chromium is a failure (.ci/run installs it), never a skip.
describe.skipIf(!existsSync(chromium) && !process.env.CI)('a real headless Chromium page, built client', () => {
  it('refuses without the opt-in, runs with it', async () => {
    expect(existsSync(built), 'build @x/client first (pnpm turbo run build)').toBe(true);
    const { build } = await import('esbuild');
    const source = `
      import { createClient } from ${JSON.stringify(built)};
      export async function check(account) {
        const fetch = async () => new Response('{"reference_id":"0123456789ABCDEF0123456789ABCDEF","status":{"code":290,"description":"x","updated_on":"x"}}', { status: 200, headers: { 'content-type': 'application/json' } });
        let refused = 'not refused';
        try { createClient({ ...account, fetch }); } catch (error) { refused = error.name + ': ' + error.message; }
        const client = createClient({ ...account, fetch, dangerouslyAllowBrowser: true });
        const sent = await client.messaging.send({ phoneNumber: '15555550100', message: 'x', messageType: 'ARN' });
        return { refused, allowed: sent.data.status.code };
      }`;
    const bundle = await build({ stdin: { contents: source, resolveDir: fileURLToPath(new URL('..', import.meta.url)), loader: 'js' }, bundle: true, format: 'esm', platform: 'browser', write: false });
    const { chromium: launcher } = await import('playwright-core');
    const browser = await launcher.launch({ executablePath: chromium, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
    try {
      const tab = await browser.newPage();
      await tab.setContent('<!doctype html><title>guard</title>');
      // Given as text: the test runner rewrites dynamic imports in the test's own code.
      const expression = `(async () => {
        const url = URL.createObjectURL(new Blob([${JSON.stringify(bundle.outputFiles[0]!.text)}], { type: 'text/javascript' }));
        return (await import(url)).check(${JSON.stringify(account)});
      })()`;
      const result = (await tab.evaluate(expression)) as { refused: string; allowed: number };
      expect(result.refused).toMatch(/^ConfigurationError: createClient refuses to run in a browser/);
      expect(result.allowed).toBe(290);
    } finally {
      await browser.close();
    }
  }, 60_000);
});

describe('createClient where TextEncoder is missing (jest-environment-jsdom)', () => {
  it('refuses at creation with what to set in Jest, instead of a ReferenceError at the first send', () => {
    const encoder = Object.getOwnPropertyDescriptor(globalThis, 'TextEncoder')!;
    delete (globalThis as Record<string, unknown>).TextEncoder;
    try {
      const error = (() => {
        try {
          createClient({ ...account, dangerouslyAllowBrowser: true });
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(error).toBeInstanceOf(ConfigurationError);
      expect(String((error as Error).message)).toMatch(/testEnvironment: 'jest-fixed-jsdom'/);
    } finally {
      Object.defineProperty(globalThis, 'TextEncoder', encoder);
    }
  });
});

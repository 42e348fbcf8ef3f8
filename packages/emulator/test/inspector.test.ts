// The inspector page over HTTP (no browser): where it is served, under which guard, with which
// security headers, and that the shell renders nothing unescaped. test/inspector-browser.test.ts
// runs it in Chromium.
import fc from 'fast-check';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLBACK_CHAOS, CALLBACK_PRODUCTS, createEmulator, FAULT_TYPES } from '../src/index.js';
import { escapeHtml } from '../src/inspector/escape.js';
import { inspectorPage } from '../src/inspector/page.js';
import { startEmulator, type RunningEmulator } from '../src/node.js';

/** A GET with a Host header of our choosing (fetch does not let one set Host). */
function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('inspector page over HTTP', () => {
  let server: RunningEmulator;
  beforeAll(async () => {
    server = await startEmulator({ logger: { error() {}, warn() {} } });
  });
  afterAll(() => server.close());

  it.each(['/', '/_emulator/inspector'])('GET %s is the page: HTML, with a CSP that allows only scripts and styles of this origin', async (path) => {
    const r = await get(server.url + path);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = String(r.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.body).toMatch(/^<!doctype html>/);
    // page.ts filled every placeholder of page.html.
    expect(r.body).not.toContain('{{');
    expect(r.body).toContain('<script type="module" src="/_emulator/inspector/app.js"></script>');
    // No inline script, style or event handler: the CSP would refuse them.
    expect(r.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(r.body).not.toMatch(/<style|\son[a-z]+=/i);
  });

  it("the fault form offers every fault type, callback chaos and product the emulator knows", async () => {
    const page = (await get(server.url + '/')).body;
    const options = (id: string) => {
      const select = new RegExp(`<select id="${id}"[^>]*>(.*?)</select>`).exec(page);
      expect(select, id).not.toBeNull();
      return [...select![1]!.matchAll(/<option(?: value="([^"]*)")?>([^<]*)<\/option>/g)].map((m) => m[1] ?? m[2]);
    };
    expect(options('fault-type').sort()).toEqual([...FAULT_TYPES].sort());
    expect(options('fault-chaos')).toEqual([...CALLBACK_CHAOS]);
    expect(options('fault-product')).toEqual(['', ...CALLBACK_PRODUCTS]);
    // The rate fault's control: its limit, shown for rate alone; times and probability (which a rate rule refuses) hidden for it.
    const forOf = (name: string) => new RegExp(`<div class="field"(?: data-for="([^"]*)")?><label for="[^"]+">[^<]*</label><(?:input|select|textarea)[^>]* name="${name}"`).exec(page)?.[1];
    expect(forOf('perSecond')).toBe('rate');
    expect(forOf('times')?.split(' ')).not.toContain('rate');
    expect(forOf('probability')?.split(' ')).not.toContain('rate');
    expect(forOf('retryAfterSeconds')?.split(' ')).toContain('rate');
  });

  it('serves its script and styles with their types', async () => {
    const js = await get(`${server.url}/_emulator/inspector/app.js`);
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    // One module, bundled at build time from src/inspector/app/*.ts: it imports nothing.
    expect(js.body).toMatch(/["']\/_emulator["']/);
    expect(js.body).not.toMatch(/(^|[;}\s])import\s*[\w{*"']|\bfrom\s*["']\.{0,2}\//);
    // Values reach the page as text, never as markup.
    expect(js.body).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
    const css = await get(`${server.url}/_emulator/inspector/app.css`);
    expect(css.status).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.body).toMatch(/@media ?\(max-width: ?700px\)/);
  });

  it.each(['/', '/_emulator/inspector', '/_emulator/inspector/app.js'])('GET %s is refused for a foreign Host (DNS rebinding) or Origin, like the control routes', async (path) => {
    const host = await get(server.url + path, { host: 'attacker.example' });
    expect(host.status).toBe(403);
    expect(JSON.parse(host.body).code).toBe('foreign_host');
    expect(host.body).not.toContain('<!doctype');
    const origin = await get(server.url + path, { origin: 'https://attacker.example' });
    expect(origin.status).toBe(403);
    expect(JSON.parse(origin.body).code).toBe('foreign_origin');
  });

  it('other paths keep their answers: the service 404 outside the products, the control 404 under /_emulator', async () => {
    const outside = await get(`${server.url}/v2/nothing`);
    expect(outside.status).toBe(404);
    expect(JSON.parse(outside.body).status.code).toBe(-40004);
    const control = await get(`${server.url}/_emulator/inspector/other.js`);
    expect(control.status).toBe(404);
    expect(JSON.parse(control.body).code).toBe('not_found');
  });
});

describe('inspector page with a control token', () => {
  let server: RunningEmulator;
  beforeAll(async () => {
    server = await startEmulator({ controlToken: 'secret-token-1234', logger: { error() {}, warn() {} } });
  });
  afterAll(() => server.close());

  it('the page (static, no data) opens without the token; the data it reads needs it', async () => {
    const page = await get(`${server.url}/`);
    expect(page.status).toBe(200);
    expect(page.body).not.toContain('secret-token-1234');
    const outbox = await get(`${server.url}/_emulator/outbox`);
    expect(outbox.status).toBe(403);
    expect(JSON.parse(outbox.body).code).toBe('token_required');
    const withToken = await get(`${server.url}/_emulator/outbox`, { authorization: 'Bearer secret-token-1234' });
    expect(withToken.status).toBe(200);
  });
});

describe('inspector in-process', () => {
  it('emulator.fetch serves the page too', async () => {
    const emulator = createEmulator();
    try {
      const r = await emulator.fetch('http://emulator.local/');
      expect(r.status).toBe(200);
      expect(await r.text()).toContain('<h1>Emulator inspector</h1>');
    } finally {
      emulator.close();
    }
  });
});

describe('escaping', () => {
  it('escapeHtml leaves no markup character and loses nothing', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const out = escapeHtml(s);
        const back = out.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
        return !/[<>"']/.test(out) && back === s;
      }),
    );
  });

  it('property: the tables reach the page whole, in one attribute, whatever their text', () => {
    const unescape = (text: string) => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
    fc.assert(
      fc.property(fc.dictionary(fc.integer({ min: 100, max: 999 }).map(String), fc.string({ unit: 'binary', maxLength: 40 })), (table) => {
        const statusCodes = Object.fromEntries(Object.entries(table).map(([code, text]) => [Number(code), text]));
        const html = inspectorPage({ statusCodes, faultStatuses: { status: [503], html: [502], error: { min: 400, max: 599 } }, assets: '/_emulator/inspector' });
        const attribute = /<body data-inspector="([^"]*)">/.exec(html);
        expect(attribute).not.toBeNull();
        const data = JSON.parse(unescape(attribute![1]!));
        expect(data.statusCodes).toEqual(Object.entries(statusCodes).map(([code, text]) => [Number(code), text]));
      }),
    );
  });

  it('the shell escapes what it is given (status descriptions, fault statuses, asset path)', () => {
    const html = inspectorPage({ statusCodes: { 200: '<img src=x onerror=alert(1)>' }, faultStatuses: { status: [503], html: [502], error: { min: 400, max: 599 } }, assets: '/a"><script>x</script>' });
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).not.toContain('"><script>x');
  });
});

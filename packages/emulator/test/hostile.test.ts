// Hostile input against the emulator: foreign hosts and origins on the control routes, fault
// rules that are not rules, signatures over the raw request-target, and abandoned requests.
import { signRequest } from '@x/auth';
import fc from 'fast-check';
import { request as httpRequest } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, FaultRuleError, type Emulator } from '../src/index.js';
import { controlSettings } from '../src/control/guard.js';
import { startEmulator, type RunningEmulator } from '../src/node.js';
import { customer } from './helpers.js';

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** A request written with node:http exactly as given: no URL parsing, no normalisation of the path, a connection of its own. */
function rawHttp(port: number, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const sms = 'phone_number=15555550180&message=hello&message_type=ARN';
const FORM = 'application/x-www-form-urlencoded';

const octet = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
// An oracle written apart from the implementation: localhost, 127.0.0.0/8, [::1]; any port.
const loopback = (host: string) => {
  const m = /^(localhost|\[::1\]|127\.\d{1,3}\.\d{1,3}\.\d{1,3})(:\d{1,5})?$/i.exec(host);
  return !!m && (m[1]!.startsWith('127.') ? m[1]!.split('.').every((o) => octet.test(o)) : true);
};
const loopbackOrigin = (origin: string) => {
  const m = /^https?:\/\/([^/]+)$/i.exec(origin);
  return !!m && loopback(m[1]!);
};

let server: RunningEmulator;
beforeAll(async () => {
  server = await startEmulator({ deliveryDelayMs: 10 });
});
afterAll(() => server.close());
afterEach(() => server.emulator.reset());

describe('item 12: control routes refuse foreign Host and Origin', () => {
  it('a DNS-rebinding Host cannot read the outbox (403 JSON that says what to do)', async () => {
    const r = await rawHttp(server.port, 'GET', '/_emulator/outbox', { host: `rebound.example:${server.port}` });
    expect(r.status).toBe(403);
    expect(r.headers['content-type']).toBe('application/json');
    const body = JSON.parse(r.text);
    expect(body.code).toBe('foreign_host');
    expect(body.error).toMatch(/127\.0\.0\.1|localhost/);
    expect(body.messages).toBeUndefined();
  });

  it('a cross-site page cannot add faults or reset (Origin, Sec-Fetch-Site, Origin: null), and nothing changes', async () => {
    const rule = JSON.stringify({ type: 'status', status: 503, times: 100 });
    const foreign: Array<Record<string, string>> = [{ origin: 'https://attacker.example' }, { 'sec-fetch-site': 'cross-site' }, { origin: 'null' }, { origin: `http://rebound.example:${server.port}` }];
    for (const headers of foreign) {
      const r = await rawHttp(server.port, 'POST', '/_emulator/faults', { 'content-type': 'text/plain', ...headers }, rule);
      expect(r.status, JSON.stringify(headers)).toBe(403);
      expect(JSON.parse(r.text).error).toEqual(expect.any(String));
    }
    expect(server.emulator.faults.list()).toEqual([]);
    server.emulator.faults.add({ type: 'drop', path: '/nowhere' });
    expect((await rawHttp(server.port, 'POST', '/_emulator/reset', { origin: 'https://attacker.example' })).status).toBe(403);
    expect(server.emulator.faults.list()).toHaveLength(1);
  });

  it('loopback hosts and origins are served, with any port', async () => {
    for (const [host, origin] of [
      [`127.0.0.1:${server.port}`, undefined],
      [`localhost:${server.port}`, 'http://localhost:5173'],
      ['LOCALHOST', 'https://127.0.0.1'],
      [`127.45.0.9:${server.port}`, 'http://[::1]:3000'],
      [`[::1]:${server.port}`, undefined],
    ] as const) {
      const r = await rawHttp(server.port, 'GET', '/_emulator/faults', { host, ...(origin ? { origin } : {}) });
      expect(r.status, `${host} ${origin}`).toBe(200);
    }
  });

  it('with a control token, every control request needs Authorization: Bearer <token>', async () => {
    const guarded = await startEmulator({ controlToken: 'a-control-token-for-tests' });
    try {
      expect(guarded.controlToken).toBe('a-control-token-for-tests');
      const none = await rawHttp(guarded.port, 'GET', '/_emulator/outbox');
      expect(none.status).toBe(403);
      expect(JSON.parse(none.text)).toMatchObject({ code: 'token_required' });
      expect(JSON.parse(none.text).error).toMatch(/Authorization: Bearer/);
      expect(none.text).not.toContain('a-control-token-for-tests');
      const wrong = await rawHttp(guarded.port, 'GET', '/_emulator/outbox', { authorization: 'Bearer not-it' });
      expect(wrong.status).toBe(403);
      const right = await rawHttp(guarded.port, 'GET', '/_emulator/outbox', { authorization: 'Bearer a-control-token-for-tests' });
      expect(right.status).toBe(200);
    } finally {
      await guarded.close();
    }
  });

  it('a server bound to a non-loopback address gets a generated token and a warning; loopback needs none', () => {
    const open = controlSettings({ hostname: '0.0.0.0' });
    expect(open.controlToken).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    expect(open.warning).toMatch(/0\.0\.0\.0/);
    expect(open.warning).not.toContain(open.controlToken);
    expect(controlSettings({ hostname: '0.0.0.0' }).controlToken).not.toBe(open.controlToken);
    expect(controlSettings({ hostname: '192.168.1.20', controlToken: 'given' })).toMatchObject({ controlToken: 'given', hostnames: ['192.168.1.20'] });
    for (const hostname of ['127.0.0.1', 'localhost', '::1', '127.0.0.2']) {
      const settings = controlSettings({ hostname });
      expect(settings.controlToken, hostname).toBeUndefined();
      expect(settings.warning, hostname).toBeUndefined();
    }
  });

  it('in-process emulator.fetch answers any Host (nothing on a network can reach it); the bare app does not', async () => {
    const emulator = createEmulator();
    try {
      expect((await emulator.fetch('http://emulator.local/_emulator/outbox')).status).toBe(200);
      const mounted = await emulator.app.fetch(new Request('http://rebound.example/_emulator/outbox', { headers: { host: 'rebound.example' } }));
      expect(mounted.status).toBe(403);
    } finally {
      emulator.close();
    }
  });

  it('property over HTTP: arbitrary Host headers read the outbox only when loopback', async () => {
    const host = fc.tuple(fc.oneof(fc.domain(), fc.ipV4(), fc.constantFrom('localhost', '127.0.0.1', '[::1]')), fc.option(fc.integer({ min: 1, max: 65535 }).map((p) => `:${p}`), { nil: '' }));
    await fc.assert(
      fc.asyncProperty(host, async ([name, port]) => {
        const r = await rawHttp(server.port, 'GET', '/_emulator/outbox', { host: name + port });
        expect(r.headers['content-type']).toBe('application/json');
        expect(r.status === 200, name + port).toBe(loopback(name + port));
      }),
      { numRuns: 60 },
    );
  });

  it('property: arbitrary Host and Origin headers reach the control routes only when both are loopback', async () => {
    const emulator = createEmulator();
    const port = fc.option(fc.integer({ min: 1, max: 65535 }).map((p) => `:${p}`), { nil: '' });
    const name = fc.oneof(
      fc.constantFrom('localhost', '127.0.0.1', '[::1]', 'LocalHost', '127.255.0.1', '127.0.0.256', 'localhost.', 'localhost.evil.example', '[::2]', '0.0.0.0', '128.0.0.1', '127.1', '2130706433', 'evil.example', ''),
      fc.domain(),
      fc.ipV4(),
      fc.ipV6().map((ip) => `[${ip}]`),
      fc.string({ maxLength: 30 }),
    );
    const host = fc.tuple(name, port).map(([n, p]) => n + p);
    const origin = fc.option(fc.oneof(fc.tuple(fc.constantFrom('http://', 'https://', 'ftp://', ''), host).map(([s, h]) => s + h), fc.constant('null'), fc.webUrl(), fc.string({ maxLength: 30 })), { nil: undefined });
    try {
      await fc.assert(
        fc.asyncProperty(host, origin, fc.constantFrom('GET', 'POST', 'DELETE'), async (h, o, method) => {
          const headers = new Headers();
          try {
            headers.set('host', h);
            if (o !== undefined) headers.set('origin', o);
          } catch {
            return; // not a header value any client could send
          }
          const path = method === 'GET' ? '/_emulator/outbox' : '/_emulator/faults';
          // Mounted in a Node server (@hono/node-server's env), reached from this machine.
          const env = { incoming: { socket: { remoteAddress: '127.0.0.1' } } } as never;
          const response = await emulator.app.fetch(new Request('http://127.0.0.1/' + path.slice(1), { method, headers, body: method === 'POST' ? '{"type":"drop","path":"/x"}' : null }), env);
          const reached = response.status !== 403;
          expect(response.headers.get('content-type')).toBe('application/json');
          if (reached) expect(loopback(h) && (o === undefined || loopbackOrigin(o)), `${h} ${o}`).toBe(true);
          emulator.faults.clear();
        }),
        { numRuns: 400 },
      );
    } finally {
      emulator.close();
    }
  });
});

describe('item 13: fault rules are validated field by field', () => {
  const signed = (emulator: Emulator) => {
    const url = 'http://emulator.test/v1/messaging';
    const { headers } = signRequest({ method: 'POST', url, contentType: FORM, body: sms }, customer);
    return emulator.fetch(url, { method: 'POST', headers, body: sms });
  };

  it.each([
    [{ type: 'latency', method: 1 }, 'method'],
    [{ type: 'latency', ms: 10, method: 1 }, 'method'],
    [{ type: 'status', status: 99 }, 'status'],
    [{ type: 'status', status: 'abc' }, 'status'],
    [{ type: 'status', status: 503, retryAfterSeconds: '1\r\nSet-Cookie: x=1' }, 'retryAfterSeconds'],
    [{ type: 'status', status: 503, retryAfterSeconds: -1 }, 'retryAfterSeconds'],
    [{ type: 'latency', ms: -5 }, 'ms'],
    [{ type: 'latency', ms: '10' }, 'ms'],
    [{ type: 'drop', times: 0 }, 'times'],
    [{ type: 'drop', times: 1.5 }, 'times'],
    [{ type: 'drop', path: 7 }, 'path'],
    [{ type: 'drop', path: 'v1' }, 'path'],
    [{ type: 'drop', statsu: 503 }, 'statsu'],
    [{ type: 'teapot' }, 'type'],
    [[1, 2], 'rule'],
  ])('in-process: faults.add(%j) throws a FaultRuleError naming %s, adds nothing, and service goes on', async (rule, field) => {
    const emulator = createEmulator();
    try {
      let thrown: unknown;
      try {
        emulator.faults.add(rule as never);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(FaultRuleError);
      expect(thrown).toMatchObject({ code: 'invalid_fault', field });
      expect((thrown as Error).message).toContain(field === 'rule' ? 'object' : field);
      expect(emulator.faults.list()).toEqual([]);
      expect((await signed(emulator)).status).toBe(200);
    } finally {
      emulator.close();
    }
  });

  it('over HTTP: a bad rule is a 400 naming the field, and later requests are served', async () => {
    for (const [rule, field] of [
      ['{"type":"latency","method":1}', 'method'],
      ['{"type":"status","status":99}', 'status'],
      ['{"type":"status","status":"abc"}', 'status'],
      ['{"type":"status","status":503,"retryAfterSeconds":"1\\r\\nX-Injected: yes"}', 'retryAfterSeconds'],
      ['not json', 'rule'],
    ] as const) {
      const r = await rawHttp(server.port, 'POST', '/_emulator/faults', { 'content-type': 'application/json' }, rule);
      expect(r.status, rule).toBe(400);
      expect(JSON.parse(r.text), rule).toMatchObject({ code: 'invalid_fault', field });
    }
    expect(server.emulator.faults.list()).toEqual([]);
    const url = `${server.url}/v1/messaging`;
    const { headers } = signRequest({ method: 'POST', url, contentType: FORM, body: sms }, customer);
    expect((await fetch(url, { method: 'POST', headers, body: sms })).status).toBe(200);
  });

  it('property: no object added as a rule ever makes a later answer malformed', async () => {
    const logged: string[] = [];
    const emulator = createEmulator({ logger: { error: (message) => void logged.push(message), warn: () => undefined } });
    const value = fc.oneof(fc.anything(), fc.integer({ min: -5, max: 700 }), fc.constantFrom(429, 500, 502, 503, 504, 'POST', 'post', '/v1', '/v1/messaging', Infinity, NaN, '1\r\nX: y'));
    const rule = fc.oneof(
      fc.record(
        { type: fc.oneof(fc.constantFrom('latency', 'status', 'drop'), fc.anything()), ms: value, status: value, retryAfterSeconds: value, times: value, method: value, path: value, extra: value },
        { requiredKeys: ['type'] },
      ),
      fc.anything(),
    );
    try {
      await fc.assert(
        fc.asyncProperty(rule, async (r) => {
          emulator.faults.clear();
          let accepted = true;
          try {
            emulator.faults.add(r as never);
          } catch (error) {
            expect(error).toBeInstanceOf(FaultRuleError);
            accepted = false;
          }
          const added = emulator.faults.list();
          if (!accepted) expect(added).toEqual([]);
          // Keep the run short: a long latency would only hold the request.
          if (added.some((f) => f.type === 'latency' && f.ms > 20)) return;
          let response: Response;
          try {
            response = await signed(emulator);
          } catch (error) {
            // Only a drop rule may end a request without an answer.
            expect(added.some((f) => f.type === 'drop')).toBe(true);
            expect(error).toBeInstanceOf(TypeError);
            return;
          }
          expect([200, 429, 500, 502, 503, 504]).toContain(response.status);
          expect(response.headers.get('content-type')).toBe('application/json');
          const retryAfter = response.headers.get('retry-after');
          if (retryAfter !== null) expect(retryAfter).toMatch(/^\d+$/);
          const body = await response.json();
          expect([290, 10019, 500]).toContain(body.status.code);
          if (response.status !== 200) expect(added.some((f) => f.type === 'status' && f.status === response.status)).toBe(true);
          expect(logged).toEqual([]);
        }),
        { numRuns: 300 },
      );
    } finally {
      emulator.close();
    }
  });
});

describe('item 14: signatures are verified over the raw request-target', () => {
  const post = async (path: string, signedPath = path) => {
    const { headers } = signRequest({ method: 'POST', url: `http://127.0.0.1:${server.port}${signedPath}`, contentType: FORM, body: sms }, customer);
    return rawHttp(server.port, 'POST', path, headers, sms);
  };

  it.each(['/v1/x/../messaging', '/v1/./messaging', '/v1/x/%2e%2e/messaging', '/v1/x/%2E%2E/messaging'])('POST %s signed over that path as sent is accepted', async (path) => {
    const r = await post(path);
    expect(r.status, r.text).toBe(200);
    expect(JSON.parse(r.text).status.code).toBe(290);
    expect(server.emulator.outbox.latest('15555550180')?.text).toBe('hello');
  });

  it('POST /v1/messaging/./ signed as sent passes authentication (then 404: /v1/messaging/ is not an operation)', async () => {
    const r = await post('/v1/messaging/./');
    expect(r.status, r.text).toBe(404);
    expect(JSON.parse(r.text).status.code).toBe(-40004);
  });

  it('a request signed over the normalised path but sent with dot segments is a signature mismatch', async () => {
    const r = await post('/v1/x/../messaging', '/v1/messaging');
    expect(r.status).toBe(401);
    expect(JSON.parse(r.text).status.code).toBe(10008);
  });
});

describe('item 15: in-process fetch honours the AbortSignal', () => {
  it('a client timeout during a latency fault is the client TimeoutError, and the abandoned request is not processed', async () => {
    // @x/client devDepends on @x/emulator (its tests run against it), so the emulator cannot depend
    // back on it: this test loads the client's build (the full suite builds every package first).
    const client = (await import(new URL('../../client/dist/index.js', import.meta.url).href)) as {
      createClient(options: Record<string, unknown>): { messaging: { send(p: Record<string, unknown>): Promise<unknown> } };
      TimeoutError: new (...args: never[]) => Error;
    };
    const emulator = createEmulator();
    try {
      emulator.faults.add({ type: 'latency', ms: 300 });
      const c = client.createClient({ ...customer, baseUrl: 'http://emulator.local', fetch: emulator.fetch, timeoutMs: 30, retry: false });
      await expect(c.messaging.send({ phoneNumber: '15555550181', message: 'x', messageType: 'ARN' })).rejects.toBeInstanceOf(client.TimeoutError);
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(emulator.outbox.list()).toEqual([]);
      expect(emulator.transactions.size).toBe(0);
    } finally {
      emulator.close();
    }
  });

  it('rejects with the signal reason, before and during the request', async () => {
    const emulator = createEmulator();
    try {
      const reason = new Error('caller gave up');
      await expect(emulator.fetch('http://emulator.local/v1/voice', { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
      emulator.faults.add({ type: 'latency', ms: 5_000 });
      const controller = new AbortController();
      const pending = emulator.fetch('http://emulator.local/v1/voice', { signal: controller.signal });
      setTimeout(() => controller.abort(reason), 20);
      await expect(pending).rejects.toBe(reason);
    } finally {
      emulator.close();
    }
  });

  it('over HTTP: a client that gives up during a latency fault abandons the request', async () => {
    server.emulator.faults.add({ type: 'latency', ms: 300 });
    const url = `${server.url}/v1/messaging`;
    const { headers } = signRequest({ method: 'POST', url, contentType: FORM, body: sms }, customer);
    await expect(fetch(url, { method: 'POST', headers, body: sms, signal: AbortSignal.timeout(30) })).rejects.toMatchObject({ name: 'TimeoutError' });
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(server.emulator.outbox.list()).toEqual([]);
  });
});

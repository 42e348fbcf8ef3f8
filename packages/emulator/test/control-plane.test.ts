// The control plane under misuse: every way an event stream is opened and ended, readers that
// stop reading, who the peer is when the app is mounted in someone else's server, callbacks aimed
// at the emulator's own control routes, malformed control input. Grows with the control routes.
import { serve } from '@hono/node-server';
import { signRequest } from '@x/auth';
import fc from 'fast-check';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { controlRoutes } from '../src/control/routes.js';
import { createEmulator } from '../src/index.js';
import { openApiDocument } from '../src/openapi/document.js';
import { createContext, type EmulatorContext } from '../src/state/context.js';
import type { EmulatorEnv } from '../src/types.js';
import { customer, local } from './helpers.js';

/** The control routes of a fresh context, called in-process (as `emulator.fetch` does). */
function control() {
  const ctx = createContext({ logger: { error() {}, warn() {} } });
  const app = controlRoutes(ctx, openApiDocument);
  const call = (method: string, path: string, init: RequestInit = {}) => app.fetch(new Request(`http://127.0.0.1${path}`, { method, ...init }), { inProcess: true } satisfies EmulatorEnv);
  return { ctx, call };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('event streams: opened and ended every way, a subscriber is never left behind', () => {
  it('HEAD /events answers the stream headers without subscribing', async () => {
    const { ctx, call } = control();
    try {
      for (let i = 0; i < 5; i++) {
        const head = await call('HEAD', '/events');
        expect(head.status).toBe(200);
        expect(head.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
        expect(await head.text()).toBe('');
      }
      expect(ctx.events.size).toBe(0);
    } finally {
      ctx.close();
    }
  });

  it('property: any mix of HEAD, GET then abort, GET then cancel, and close leaves no subscriber', async () => {
    const end = fc.constantFrom('head', 'abort', 'cancel', 'close');
    await fc.assert(
      fc.asyncProperty(fc.array(end, { minLength: 1, maxLength: 8 }), async (ends) => {
        const { ctx, call } = control();
        const closing: EmulatorContext[] = [];
        for (const way of ends) {
          if (way === 'head') await call('HEAD', '/events');
          else {
            const abort = new AbortController();
            const response = await call('GET', '/events', { signal: abort.signal });
            expect(response.status).toBe(200);
            if (way === 'abort') abort.abort();
            else if (way === 'cancel') await response.body!.cancel();
            else closing.push(ctx);
          }
        }
        if (closing.length) ctx.close();
        await settle();
        expect(ctx.events.size).toBe(0);
        ctx.close();
      }),
      { numRuns: 40 },
    );
  });

  it('a reader that stops reading is cut off past the bound, and its queue is let go', async () => {
    const { ctx, call } = control();
    try {
      const response = await call('GET', '/events');
      expect(ctx.events.size).toBe(1);
      // 4 KiB per event, never read: 2,000 events would queue 8 MiB.
      const big = 'x'.repeat(4096);
      for (let i = 0; i < 2000 && ctx.events.size > 0; i++) ctx.events.emit('faults', () => ({ faults: [{ type: 'drop', path: big }] as never }));
      expect(ctx.events.size).toBe(0);
      // The reader that comes back finds the stream ended (with an error), not 8 MiB waiting.
      const reader = response.body!.getReader();
      let bytes = 0;
      const outcome = await (async () => {
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) return 'done';
            bytes += value.byteLength;
          }
        } catch {
          return 'errored';
        }
      })();
      expect(['done', 'errored']).toContain(outcome);
      expect(bytes).toBeLessThan(2000 * 4096);
    } finally {
      ctx.close();
    }
  });

  it('every open stream receives an event, framed the same (no frame kept between events)', async () => {
    const { ctx, call } = control();
    try {
      const responses = await Promise.all([1, 2, 3, 4].map(() => call('GET', '/events')));
      ctx.events.emit('faults', () => ({ faults: [{ type: 'rate', perSecond: 2 }] }) as never);
      ctx.events.emit('faults', () => ({ faults: [] }) as never);
      const texts = await Promise.all(
        responses.map(async (r) => {
          const reader = r.body!.getReader();
          const decoder = new TextDecoder();
          let text = '';
          while ((text.match(/event: faults/g) ?? []).length < 2) {
            const { value, done } = await reader.read();
            if (done) break;
            text += decoder.decode(value, { stream: true });
          }
          await reader.cancel();
          return text.slice(text.indexOf('event: faults'));
        }),
      );
      expect(texts[0]).toBe('event: faults\ndata: {"faults":[{"type":"rate","perSecond":2}]}\n\nevent: faults\ndata: {"faults":[]}\n\n');
      expect(new Set(texts).size).toBe(1);
    } finally {
      ctx.close();
    }
  });
});

describe('emulator.app mounted in your own server: the peer address decides where the server exposes it', () => {
  const outbox = (emulator: ReturnType<typeof createEmulator>, env: unknown, headers: Record<string, string> = {}) =>
    emulator.app.fetch(new Request('http://127.0.0.1:4010/_emulator/outbox', { headers: { host: '127.0.0.1:4010', ...headers } }), env as EmulatorEnv);

  it('Node (@hono/node-server), Deno and Bun env shapes: a LAN peer sending Host 127.0.0.1 is refused, a loopback peer is served', async () => {
    const emulator = createEmulator();
    try {
      const node = (address: string) => ({ incoming: { socket: { remoteAddress: address } } });
      const deno = (address: string) => ({ remoteAddr: { transport: 'tcp', hostname: address, port: 50000 } });
      const bun = (address: string) => ({ requestIP: () => ({ address, family: address.includes(':') ? 'IPv6' : 'IPv4', port: 50000 }) });
      for (const shape of [node, deno, bun]) {
        for (const peer of ['192.168.1.20', '10.0.0.7', '::ffff:192.168.1.20', 'fe80::1']) {
          const refused = await outbox(emulator, shape(peer));
          expect(refused.status, `${shape.name} ${peer}`).toBe(403);
          expect((await refused.json()).code).toBe('foreign_peer');
        }
        for (const peer of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) expect((await outbox(emulator, shape(peer))).status, `${shape.name} ${peer}`).toBe(200);
      }
    } finally {
      emulator.close();
    }
  });

  it('a server that exposes no peer address: the control token is required (createEmulator({ controlToken }))', async () => {
    const open = createEmulator();
    const guarded = createEmulator({ controlToken: 'mounted-token-1' });
    try {
      const refused = await outbox(open, undefined);
      expect(refused.status).toBe(403);
      expect((await refused.json()).code).toBe('token_required');
      expect((await outbox(guarded, {})).status).toBe(403);
      expect((await outbox(guarded, {}, { authorization: 'Bearer mounted-token-1' })).status).toBe(200);
      // The token is required from a loopback peer too once it is set.
      expect((await outbox(guarded, { incoming: { socket: { remoteAddress: '127.0.0.1' } } })).status).toBe(403);
    } finally {
      open.close();
      guarded.close();
    }
  });

  it('over real HTTP with @hono/node-server serve(): a loopback peer reads the outbox', async () => {
    const emulator = createEmulator();
    const server = serve({ fetch: emulator.app.fetch, hostname: '127.0.0.1', port: 0 });
    try {
      await new Promise((resolve) => server.once('listening', resolve));
      const { port } = server.address() as AddressInfo;
      const r = await fetch(`http://127.0.0.1:${port}/_emulator/outbox`);
      expect(r.status).toBe(200);
    } finally {
      emulator.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('callbacks aimed at the emulator itself are refused at submission', () => {
  const sms = (callbackUrl: string) => ({ phone_number: '15555550100', message: 'hi', message_type: 'ARN', callback_url: callbackUrl });

  it('property: any spelling of a control route as callback_url is 400 11004, and the outbox and faults are untouched', async () => {
    const emulator = createEmulator({ deliveryDelayMs: 0 });
    try {
      emulator.faults.add({ type: 'latency', ms: 1, path: '/nothing' });
      const host = fc.constantFrom('127.0.0.1:4010', 'localhost:4010', '[::1]:4010', 'emulator.local', 'anything.example');
      const route = fc.constantFrom('/_emulator/reset', '/_emulator/faults', '/%5Femulator/reset', '//_emulator/reset', '/_emulator/./reset', '/x/../_emulator/reset', '/_EMULATOR/reset', '/_emulator');
      await fc.assert(
        fc.asyncProperty(fc.constantFrom('http', 'https'), host, route, async (scheme, h, path) => {
          const r = await local(emulator, 'POST', '/v1/messaging', { form: sms(`${scheme}://${h}${path}`) });
          expect(r.status, `${scheme}://${h}${path}`).toBe(400);
          expect(r.body.status.code).toBe(11004);
        }),
        { numRuns: 40 },
      );
      expect(emulator.faults.list()).toHaveLength(1);
      // Other callback URLs are accepted as before.
      expect((await local(emulator, 'POST', '/v1/messaging', { form: sms('http://127.0.0.1:3000/_emulator-like/cb') })).status).toBe(200);
    } finally {
      emulator.close();
    }
  });
});

describe('malformed control input gets a JSON 4xx that says what to send', () => {
  it('property: arbitrary bodies on the control actions never answer 500', async () => {
    const emulator = createEmulator();
    try {
      const route = fc.constantFrom('/_emulator/faults', '/_emulator/inbound', '/_emulator/clock/advance', '/_emulator/transactions/0123456789ABCDEF0123456789ABCDEF/status');
      const body = fc.oneof(fc.string({ maxLength: 60 }), fc.json().map(String), fc.constant('{"from":1}'), fc.constant('null'));
      await fc.assert(
        fc.asyncProperty(route, body, async (path, text) => {
          const r = await emulator.fetch(`http://emulator.local${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });
          expect(r.status, `${path} ${text}`).toBeLessThan(500);
          expect(r.headers.get('content-type')).toBe('application/json');
          emulator.faults.clear();
        }),
        { numRuns: 60 },
      );
    } finally {
      emulator.close();
    }
  });

  it('a signed request still works after all of that', async () => {
    const emulator = createEmulator();
    try {
      const url = 'http://emulator.test/v1/messaging';
      const body = new URLSearchParams({ phone_number: '15555550100', message: 'ok', message_type: 'ARN' }).toString();
      const { headers } = signRequest({ method: 'POST', url, contentType: 'application/x-www-form-urlencoded', body }, customer);
      expect((await emulator.fetch(url, { method: 'POST', headers, body })).status).toBe(200);
    } finally {
      emulator.close();
    }
  });
});

describe('a failed callback delivery says why, where, and when the next attempt is due', () => {
  it('connection refused: cause code and address in the attempt, the listing and the CLI line; the next attempt time', async () => {
    const { createServer } = await import('node:http');
    const { callbackLine } = await import('../src/cli/format.js');
    // A port that was just free: nothing listens there.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    const at = Math.floor(Date.now() / 60_000) * 60_000; // a fixed clock, near the real one (signatures carry the time)
    const emulator = createEmulator({ now: () => at, deliveryDelayMs: 0, callbacks: { retryDelaysMs: [60_000] }, customers: [{ ...customer, callbackUrl: `http://127.0.0.1:${port}/cb` }] });
    try {
      await local(emulator, 'POST', '/v1/messaging', { form: { phone_number: '15555550100', message: 'hi', message_type: 'ARN' } });
      const view = await emulator.waitFor({ callback: { ok: false } } as never);
      expect(view).toMatchObject({ ok: false, cause: 'ECONNREFUSED', address: `127.0.0.1:${port}`, nextAttemptAt: at + 60_000 });
      const listed = await (await emulator.fetch('http://emulator.local/_emulator/callbacks')).json();
      expect(listed.attempts[0]).toMatchObject({ cause: 'ECONNREFUSED', address: `127.0.0.1:${port}`, nextAttemptAt: at + 60_000 });
      const line = callbackLine(emulator.callbacks.list()[0]!, { color: false });
      expect(line).toContain(`ECONNREFUSED 127.0.0.1:${port}`);
      expect(line).toContain(`next attempt ${new Date(at + 60_000).toISOString().slice(11, 19)}`);
    } finally {
      emulator.close();
    }
  });
});

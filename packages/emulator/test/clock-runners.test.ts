// The emulator under the tools tests run with: fake timers installed after it was created, a `now`
// shared with the client (Date or number), and `await emulator.idle()` with nothing else keeping
// the process alive (a plain script, node --test).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEmulator } from '../src/index.js';
import { local } from './helpers.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('the clock is read at call time', () => {
  it('vi.setSystemTime after createEmulator: a signed request is accepted (no clock_skew)', async () => {
    const emulator = createEmulator();
    try {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
      const r = await local(emulator, 'POST', '/v1/messaging', { form: { phone_number: '15555550100', message: 'hi', message_type: 'ARN' } });
      expect(r.status).toBe(200);
      expect(emulator.clock.now()).toBe(Date.UTC(2030, 0, 1));
    } finally {
      emulator.close();
    }
  });

  it('vi.advanceTimersByTime(11 min) after createEmulator expires a verification code', async () => {
    const emulator = createEmulator({ deliveryDelayMs: 0 });
    try {
      vi.useFakeTimers({ toFake: ['Date'] });
      const sent = await local(emulator, 'POST', '/v1/verify/sms', { form: { phone_number: '15555550100' } });
      expect(sent.status).toBe(200);
      const code = /\d{4,}/.exec(emulator.outbox.latest('15555550100')!.text)![0];
      vi.advanceTimersByTime(11 * 60_000);
      const checked = await local(emulator, 'GET', `/v1/verify/${sent.body.reference_id}?verify_code=${code}`);
      expect(checked.body.verify.code_state).toBe('EXPIRED');
    } finally {
      emulator.close();
    }
  });

  it('now may return a Date or a number (one test clock shared with the client)', async () => {
    let at = Date.now();
    const emulator = createEmulator({ now: () => new Date(at) });
    try {
      expect(emulator.clock.now()).toBe(at);
      at += 1_000;
      expect(emulator.clock.now()).toBe(at);
      const r = await local(emulator, 'POST', '/v1/messaging', { form: { phone_number: '15555550100', message: 'hi', message_type: 'ARN' } });
      expect(r.status).toBe(200);
    } finally {
      emulator.close();
    }
    const bad = createEmulator({ now: (() => 'noon') as never });
    try {
      expect(() => bad.clock.now()).toThrow(/now must return a Date or a number/);
    } finally {
      bad.close();
    }
  });
});

describe('idle() keeps the process alive while awaited', () => {
  const script = `
    import { signRequest } from '@x/auth';
    import { createEmulator, DEFAULT_CUSTOMER } from './dist/index.js';
    // Its callback is refused (port 9: nothing listens), and the retry waits 300 ms on an unref'd timer.
    const emulator = createEmulator({ deliveryDelayMs: 0, customers: [{ ...DEFAULT_CUSTOMER, callbackUrl: 'http://127.0.0.1:9/cb' }], callbacks: { retryDelaysMs: [300] } });
    const url = 'http://emulator.local/v1/messaging';
    const body = 'phone_number=15555550100&message=hi&message_type=ARN';
    const { headers } = signRequest({ method: 'POST', url, contentType: 'application/x-www-form-urlencoded', body }, DEFAULT_CUSTOMER);
    await emulator.fetch(url, { method: 'POST', headers, body });
    await emulator.idle();
    await emulator.waitFor({ outbox: { phoneNumber: '15555550100' } });
    console.log('idle done', emulator.callbacks.attempts.length);
    emulator.close();
  `;

  it('a plain script: await emulator.idle() with a callback retry pending exits 0 after it, not 13', async () => {
    const cwd = fileURLToPath(new URL('..', import.meta.url));
    const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      execFile(process.execPath, ['--input-type=module', '-e', script], { cwd }, (error, out) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout: out }));
    });
    expect(stdout.trim()).toBe('idle done 2');
    expect(code).toBe(0);
  });
});

describe('loads where TextEncoder, TextDecoder, Request, Response and Headers are missing (Jest jsdom)', () => {
  // Its dependencies are loaded first, with the globals: this checks the emulator's own modules.
  const script = `
    const deps = ['@x/auth', '@x/auth/protocol', 'hono', 'libphonenumber-js/min', '@hono/node-server'];
    for (const dep of deps) await import(dep);
    const require = (await import('node:module')).createRequire(process.cwd() + '/');
    for (const dep of deps) require(dep);
    for (const name of ['TextEncoder', 'TextDecoder', 'Request', 'Response', 'Headers']) delete globalThis[name];
    const loaded = await import(process.argv[1]);
    console.log(typeof loaded.createEmulator, loaded.DEFAULT_CUSTOMER.apiKey.length > 0);
  `;
  it.each(['./dist/index.js', './dist/index.cjs'])('%s imports without touching them', async (entry) => {
    const cwd = fileURLToPath(new URL('..', import.meta.url));
    const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, ['--input-type=module', '-e', script, entry], { cwd }, (_error, out, err) => resolve({ stdout: out, stderr: err }));
    });
    expect(stderr).toBe('');
    expect(stdout.trim()).toBe('function true');
  });
});

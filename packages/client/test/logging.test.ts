// Logging against a real server on 127.0.0.1: the fields of each line for a success, a 401, a 429
// then 200, and a refused connection; and the secrets (key, Authorization value, signature,
// message text, verification code, phone number) grepped for in everything that was printed.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConfigurationError, createClient, type CreateClientOptions, type LogFields, type Logger, type LogLevel } from '../src/index.js';
import { freePort } from '../../../testing/support.js';
import { startRecordingServer, type RecordingServer } from './recording-server.js';

const account = { customerId: 'DDDDDDDD-1111-2222-3333-444444444444', apiKey: Buffer.from('a very secret key of 32 bytes!!!').toString('base64') };
const MESSAGE = 'Private words: the parcel is under the mat';
const PHONE = '15555550123';
const CODE = '918273';
const REFERENCE = '0123456789ABCDEF0123456789ABCDEF';

type Line = { level: Exclude<LogLevel, 'off'>; fields: LogFields; message: string };

/** A logger that keeps every line, and the text of all of them (what a log file would hold). */
function capture() {
  const lines: Line[] = [];
  const at = (level: Line['level']) => (fields: LogFields, message: string) => void lines.push({ level, fields: structuredClone(fields), message });
  const logger: Logger = { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
  return { lines, logger, text: () => lines.map((l) => `${l.level} ${l.message} ${JSON.stringify(l.fields)}`).join('\n') };
}

let server: RecordingServer;
beforeAll(async () => {
  server = await startRecordingServer([account]);
});
afterAll(() => server.close());
afterEach(() => server.reset());

const client = (extra: Partial<CreateClientOptions>) => createClient({ ...account, baseUrl: server.url, retry: { retries: 2, minDelayMs: 1, maxDelayMs: 1_000 }, ...extra });
const send = (c: ReturnType<typeof createClient>) => c.messaging.send({ phoneNumber: PHONE, message: MESSAGE, messageType: 'OTP' });

/** Every secret the requests so far carried, as the server received them. */
function secretsSent(): string[] {
  const secrets = [account.apiKey, MESSAGE, 'Private words', 'parcel', CODE, PHONE];
  for (const request of server.requests) {
    const authorization = String(request.headers.authorization ?? '');
    secrets.push(authorization);
    const signature = /^TSA [^:]+:(.+)$/.exec(authorization)?.[1];
    if (signature) secrets.push(signature);
    const basic = /^Basic (.+)$/.exec(authorization)?.[1];
    if (basic) secrets.push(basic);
  }
  return secrets.filter((s) => s.length > 0);
}

describe('hooks and the log observe the same events', () => {
  it('each event reaches every observer once, in order; a throwing hook stops neither the log nor the request', async () => {
    server.script({ status: 429, headers: { 'retry-after': '0' }, body: { status: { code: 10019, description: 'Rate limit exceeded' } } });
    const log = capture();
    const seen: string[] = [];
    const hooks = {
      onRequest: (e: { attempt: number }) => {
        seen.push(`hook request ${e.attempt}`);
        throw new Error('a broken hook');
      },
      onResponse: (e: { attempt: number; status: number }) => void seen.push(`hook response ${e.attempt} ${e.status}`),
      onRetry: (e: { attempt: number }) => void seen.push(`hook retry ${e.attempt}`),
    };
    const logger: Logger = { ...log.logger, debug: (f, m) => (seen.push(`log ${f.event} ${f.attempt}`), log.logger.debug(f, m)), info: (f, m) => (seen.push(`log ${f.event} ${f.attempt}`), log.logger.info(f, m)), warn: (f, m) => (seen.push(`log ${f.event} ${f.attempt}`), log.logger.warn(f, m)) };
    const { status } = await send(client({ logLevel: 'debug', logger, hooks }));
    expect(status).toBe(200);
    expect(seen).toEqual([
      'hook request 1', 'log request 1', 'hook response 1 429', 'log response 1', 'hook retry 1', 'log retry 1',
      'hook request 2', 'log request 2', 'hook response 2 200', 'log response 2',
    ]);
  });
});

describe('log lines', () => {
  it('a success: one info line with method, path, status, service code, reference id, attempt, ms', async () => {
    const log = capture();
    await send(client({ logLevel: 'info', logger: log.logger }));
    expect(log.lines).toEqual([
      {
        level: 'info',
        fields: { event: 'response', method: 'POST', host: new URL(server.url).host, path: '/v1/messaging', attempt: 1, status: 200, serviceCode: 200, referenceId: REFERENCE, durationMs: expect.any(Number) },
        message: expect.stringMatching(/^@x\/client POST \/v1\/messaging -> 200 \(service 200\), attempt 1, \d+ ms$/),
      },
    ]);
  });

  it('a 401: the answer at info, then the failure at error', async () => {
    server.script({ status: 401, body: { status: { code: -30000, description: 'Invalid Customer ID.' }, errors: [{ code: -30000, description: 'Invalid Customer ID.' }] } });
    const log = capture();
    const error = await send(client({ logLevel: 'info', logger: log.logger })).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'authentication_error' });
    expect(log.lines.map((l) => [l.level, l.fields.event])).toEqual([['info', 'response'], ['error', 'failure']]);
    expect(log.lines[0]!.fields).toMatchObject({ status: 401, serviceCode: -30000, attempt: 1 });
    expect(log.lines[1]!.fields).toMatchObject({ event: 'failure', method: 'POST', path: '/v1/messaging', attempt: 1, error: 'authentication_error', status: 401, serviceCode: -30000, durationMs: expect.any(Number) });
    expect(log.lines[1]!.message).toMatch(/^@x\/client POST \/v1\/messaging failed after 1 attempt, \d+ ms: authentication_error \(HTTP 401, service -30000\)$/);
  });

  it('a 429 then a 200: the 429 at info, the retry at warn with the wait, the 200 at info as attempt 2', async () => {
    server.script({ status: 429, headers: { 'retry-after': '0' }, body: { status: { code: 10019, description: 'Rate limit exceeded' }, errors: [{ code: 10019, description: 'Rate limit exceeded' }] } });
    const log = capture();
    await send(client({ logLevel: 'info', logger: log.logger }));
    expect(log.lines.map((l) => [l.level, l.fields.event, l.fields.attempt, l.fields.status])).toEqual([
      ['info', 'response', 1, 429],
      ['warn', 'retry', 1, 429],
      ['info', 'response', 2, 200],
    ]);
    expect(log.lines[1]!.fields).toMatchObject({ error: 'rate_limited', serviceCode: 10019, delayMs: 0 });
    expect(log.lines[1]!.message).toBe('@x/client POST /v1/messaging attempt 1 failed: rate_limited (HTTP 429, service 10019); retrying in 0 ms');
  });

  it('a refused connection: the retry at warn and the failure at error, with the cause code', async () => {
    const log = capture();
    const dead = `http://127.0.0.1:${await freePort()}`;
    const error = await send(client({ baseUrl: dead, retry: { retries: 1, minDelayMs: 1 }, logLevel: 'info', logger: log.logger })).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'network_error', sent: false });
    expect(log.lines.map((l) => [l.level, l.fields.event, l.fields.attempt, l.fields.error, l.fields.cause])).toEqual([
      ['warn', 'retry', 1, 'network_error', 'ECONNREFUSED'],
      ['error', 'failure', 2, 'network_error', 'ECONNREFUSED'],
    ]);
    expect(log.lines[1]!.fields.status).toBeUndefined();
    expect(log.lines[1]!.message).toMatch(/failed after 2 attempts, \d+ ms: network_error \(ECONNREFUSED\)$/);
  });

  it('a caller abort is an info line, not an error', async () => {
    server.script({ status: 200, delayMs: 2_000 });
    const log = capture();
    const controller = new AbortController();
    const pending = client({ logLevel: 'info', logger: log.logger }).messaging.status(REFERENCE, { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toMatchObject({ code: 'aborted' });
    expect(log.lines.map((l) => [l.level, l.fields.event, l.fields.error])).toEqual([['info', 'failure', 'aborted']]);
  });

  it('masks phone numbers in paths at info: all digits but the last 4', async () => {
    const log = capture();
    await client({ logger: log.logger }).phoneId.lookup(`+${PHONE}`);
    expect(log.lines).toHaveLength(1);
    expect(log.lines[0]!.fields.path).toBe('/v1/phoneid/*******0123');
    expect(log.lines[0]!.message).toContain('POST /v1/phoneid/*******0123 -> 200');
  });

  it('each level adds to the one before: error < warn < info < debug', async () => {
    const events: Record<string, string[]> = {};
    for (const level of ['error', 'warn', 'info', 'debug'] as const) {
      server.script({ status: 429, headers: { 'retry-after': '0' } }, { status: 503 }, { status: 503 });
      const log = capture();
      await client({ logLevel: level, logger: log.logger }).messaging.status(REFERENCE).catch(() => undefined);
      events[level] = log.lines.map((l) => `${l.level}:${l.fields.event}`);
    }
    expect(events).toEqual({
      error: ['error:failure'],
      warn: ['warn:retry', 'warn:retry', 'error:failure'],
      info: ['info:response', 'warn:retry', 'info:response', 'warn:retry', 'info:response', 'error:failure'],
      debug: ['debug:request', 'info:response', 'warn:retry', 'debug:request', 'info:response', 'warn:retry', 'debug:request', 'info:response', 'error:failure'],
    });
  });
});

describe('secrets never printed (grep of the captured output)', () => {
  async function everything(level: LogLevel, auth: 'digest' | 'basic') {
    const log = capture();
    const c = client({ logLevel: level, logger: log.logger, auth });
    server.script({ status: 429, headers: { 'retry-after': '0' } }, { status: 200 }, { status: 401, body: { errors: [{ code: -30000, description: 'Invalid' }] } });
    await send(c);
    await send(c).catch(() => undefined);
    await c.verify.sms({ phoneNumber: PHONE, verifyCode: CODE, template: `${MESSAGE} $$CODE$$` });
    await c.verify.check(REFERENCE, CODE);
    await c.phoneId.lookup(PHONE);
    await c.voice.call({ phoneNumber: PHONE, message: MESSAGE, messageType: 'OTP' });
    return log;
  }

  for (const auth of ['digest', 'basic'] as const) {
    it(`at info (${auth}): no key, Authorization value, signature, message text, verification code or phone number`, async () => {
      const log = await everything('info', auth);
      expect(log.lines.length).toBeGreaterThanOrEqual(8);
      const text = log.text();
      for (const secret of secretsSent()) expect(text).not.toContain(secret);
    });
  }

  it('at debug (digest): the string to sign is shown, never the key, the Authorization value, the signature or the code', async () => {
    const log = await everything('debug', 'digest');
    const requests = log.lines.filter((l) => l.fields.event === 'request');
    expect(requests.length).toBeGreaterThanOrEqual(7);
    const text = log.text();
    const forbidden = secretsSent().filter((s) => ![MESSAGE, 'Private words', 'parcel', PHONE].includes(s));
    expect(forbidden.length).toBeGreaterThan(5);
    for (const secret of forbidden) expect(text).not.toContain(secret);
    // What debug is for: the string to sign, with its body (codes masked), and the redacted headers.
    const verify = requests.find((l) => l.fields.path === '/v1/verify/sms')!;
    expect(verify.fields.stringToSign).toMatch(/^POST\napplication\/x-www-form-urlencoded\n\nx-ts-auth-method:HMAC-SHA256\nx-ts-date:.+\nx-ts-nonce:.+\n.*verify_code=\[redacted\].*\n\/v1\/verify\/sms$/);
    expect(verify.fields.headers).toMatchObject({ authorization: `TSA ${account.customerId}:[redacted]`, 'content-type': 'application/x-www-form-urlencoded' });
    const check = requests.find((l) => l.fields.query !== undefined)!;
    expect(check.fields.query).toBe('verify_code=[redacted]');
    expect(check.message).toContain(`GET /v1/verify/${REFERENCE}?verify_code=[redacted] attempt 1: sending`);
  });
});

describe('logger and level options', () => {
  it('a logger without a level logs at info; no logger and no level logs nothing', async () => {
    const log = capture();
    await send(client({ logger: log.logger }));
    expect(log.lines.map((l) => l.level)).toEqual(['info']);
    const printed: unknown[] = [];
    const original = console.info;
    console.info = (...data: unknown[]) => void printed.push(data);
    try {
      await send(client({}));
    } finally {
      console.info = original;
    }
    expect(printed).toEqual([]);
  });

  it('a logger that throws does not fail the request', async () => {
    const boom = () => {
      throw new Error('logger down');
    };
    const result = await send(client({ logLevel: 'debug', logger: { error: boom, warn: boom, info: boom, debug: boom } }));
    expect(result.status).toBe(200);
  });

  it('calls the logger as a method (pino needs its this)', async () => {
    const seen: unknown[] = [];
    const logger = {
      lines: seen,
      error(this: { lines: unknown[] }, fields: LogFields) { this.lines.push(fields.event); },
      warn(this: { lines: unknown[] }, fields: LogFields) { this.lines.push(fields.event); },
      info(this: { lines: unknown[] }, fields: LogFields) { this.lines.push(fields.event); },
      debug(this: { lines: unknown[] }, fields: LogFields) { this.lines.push(fields.event); },
    };
    await send(client({ logLevel: 'debug', logger }));
    expect(seen).toEqual(['request', 'response']);
  });

  it('refuses an unknown level and a logger without the four methods', () => {
    expect(() => client({ logLevel: 'verbose' as never })).toThrow(ConfigurationError);
    expect(() => client({ logLevel: 'verbose' as never })).toThrow(/logLevel must be one of off, error, warn, info, debug/);
    expect(() => client({ logger: { info() {}, error() {} } as never })).toThrow(/lacks warn, debug/);
  });

  it('hooks still see every attempt alongside the logger', async () => {
    server.script({ status: 429, headers: { 'retry-after': '0' } });
    const log = capture();
    const attempts: number[] = [];
    await send(client({ logger: log.logger, hooks: { onRequest: (e) => attempts.push(e.attempt) } }));
    expect(attempts).toEqual([1, 2]);
    expect(log.lines).toHaveLength(3);
  });
});

// The README's operation table is a contract: every row is checked against what the client puts on
// the wire (method, path, host, credentials, auth scheme, content type) and how often it sends the
// request when the server fails (retry class), on a real HTTP server on 127.0.0.1.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { freePort } from '../../../testing/support.js';
import { NetworkError, RateLimitError, TimeoutError } from '../src/index.js';
import { INTEL, MAIN, PHONE, PREFIX, REF, routedClient, SAMPLES, VAPI } from './operation-samples.js';
import { startRecordingServer, type Answer, type RecordingServer } from './recording-server.js';

interface Row {
  call: string;
  method: string;
  path: string;
  query: string | undefined;
  host: keyof typeof PREFIX;
  auth: 'client' | 'Basic';
  body: 'form' | 'JSON' | 'none' | 'form, empty';
  retry: 'never re-sent' | 'retried on 429 and when provably not sent' | 'idempotent: retried on 5xx/timeouts';
}

function readTable(): Row[] {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const lines = readme.slice(readme.indexOf('<!-- operation-table')).split('\n').slice(1);
  const end = lines.findIndex((line) => !line.startsWith('|'));
  return lines.slice(2, end).map((line) => {
    const [call, route, host, auth, body, retry] = line.replace(/^\|\s*|\s*\|$/g, '').split(/\s+\|\s+/);
    const [method, target] = route!.split(' ');
    const [path, query] = target!.split('?');
    return { call: /^`([\w.]+)\(/.exec(call!)![1]!, method: method!, path: path!, query: query?.replace(/=$/, ''), host, auth, body, retry } as Row;
  });
}

const rows = readTable();
const accounts = { REST: MAIN, Intelligence: INTEL, 'Verify API': VAPI };
const fast = { retries: 2, minDelayMs: 1, maxDelayMs: 5 };

let server: RecordingServer;
beforeAll(async () => {
  server = await startRecordingServer([MAIN, INTEL, VAPI]);
});
afterAll(() => server.close());
beforeEach(() => server.reset());

describe('README operation table', () => {
  it('lists every operation of the client, and only those', () => {
    expect(rows.map((r) => r.call).sort()).toEqual(Object.keys(SAMPLES).sort());
    expect(new Set(rows.map((r) => r.retry))).toEqual(new Set(['never re-sent', 'retried on 429 and when provably not sent', 'idempotent: retried on 5xx/timeouts']));
  });

  it.each(rows.map((r) => [r.call, r] as const))('%s sends what its row says', async (call, row) => {
    await SAMPLES[call]!(routedClient(server.url));
    expect(server.requests).toHaveLength(1);
    const req = server.requests[0]!;
    expect(req.method).toBe(row.method);
    expect(req.path).toBe(PREFIX[row.host] + row.path.replace('{reference_id}', REF).replace('{phone_number}', PHONE));
    if (row.query) expect(Object.keys(req.query)).toContain(row.query);
    else expect(req.query).toEqual({});
    expect(req.auth).toMatchObject({ ok: true, customerId: accounts[row.host].customerId, scheme: row.auth === 'Basic' ? 'basic' : 'digest' });
    const types = { form: 'application/x-www-form-urlencoded', 'form, empty': 'application/x-www-form-urlencoded', JSON: 'application/json', none: undefined };
    expect(req.contentType).toBe(types[row.body]);
    if (row.body === 'JSON') expect(typeof JSON.parse(req.body)).toBe('object');
    if (row.body === 'form') expect(req.body).toMatch(/^[\w%.*~+-]+=/);
    if (row.body === 'none' || row.body === 'form, empty') expect(req.body).toBe('');
  });

  it('with `auth: "basic"`, the client-auth rows go with Basic (and the right account per host)', async () => {
    for (const row of rows.filter((r) => r.auth === 'client')) {
      server.reset();
      await SAMPLES[row.call]!(routedClient(server.url, { auth: 'basic' }));
      expect(server.requests[0]!.auth, row.call).toMatchObject({ ok: true, customerId: accounts[row.host].customerId, scheme: 'basic' });
    }
  });
});

describe('README retry classes, per operation', () => {
  const expected: Record<Row['retry'], { s503: number; s429: number; reset: number; timeout: number; refused: number }> = {
    'never re-sent': { s503: 1, s429: 1, reset: 1, timeout: 1, refused: 1 },
    'retried on 429 and when provably not sent': { s503: 1, s429: 2, reset: 1, timeout: 1, refused: 3 },
    'idempotent: retried on 5xx/timeouts': { s503: 2, s429: 2, reset: 2, timeout: 2, refused: 3 },
  };

  async function arrivals(call: string, first: Answer, options: { timeoutMs?: number } = {}) {
    server.reset();
    server.script(first);
    const outcome = await SAMPLES[call]!(routedClient(server.url, { retry: fast, ...options })).then(
      () => 'ok' as const,
      (error: unknown) => error,
    );
    return { count: server.requests.length, outcome };
  }

  it.each(rows.map((r) => [r.call, r] as const))('%s', async (call, row) => {
    const want = expected[row.retry];

    const s503 = await arrivals(call, { status: 503, body: { status: { code: 503, description: 'Service unavailable' } } });
    expect(s503.count, '503 then 200').toBe(want.s503);
    if (want.s503 === 1) expect(s503.outcome).toMatchObject({ name: 'ApiError', status: 503 });
    else expect(s503.outcome).toBe('ok');

    const s429 = await arrivals(call, { status: 429, body: { status: { code: 10019, description: 'Rate limit' } } });
    expect(s429.count, '429 then 200').toBe(want.s429);
    if (want.s429 === 1) expect(s429.outcome).toBeInstanceOf(RateLimitError);
    else expect(s429.outcome).toBe('ok');

    const reset = await arrivals(call, 'reset');
    expect(reset.count, 'connection reset after the request arrived').toBe(want.reset);
    if (want.reset === 1) expect(reset.outcome).toMatchObject({ name: 'NetworkError', sent: 'unknown' });
    else expect(reset.outcome).toBe('ok');

    const timeout = await arrivals(call, { status: 200, delayMs: 5_000 }, { timeoutMs: 400 });
    expect(timeout.count, 'no answer within timeoutMs').toBe(want.timeout);
    if (want.timeout === 1) expect(timeout.outcome).toBeInstanceOf(TimeoutError);
    else expect(timeout.outcome).toBe('ok');

    // Refused: nothing arrives anywhere, so the attempts are counted by the client's own hook.
    const port = await freePort();
    const attempts: number[] = [];
    const dead = `http://127.0.0.1:${port}`;
    const client = routedClient(dead, { retry: fast, hooks: { onRequest: (e) => attempts.push(e.attempt) } });
    const refused = await SAMPLES[call]!(client).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(NetworkError);
    expect((refused as NetworkError).sent).toBe(false);
    expect(attempts, 'connection refused (provably not sent)').toHaveLength(want.refused);
  });

  it('a never-re-sent operation stays single even when the caller asks for retries', async () => {
    server.script({ status: 429 });
    const client = routedClient(server.url);
    await expect(client.messaging.bulk({ recipients: [PHONE], template: 'x' }, { retry: { retries: 5, minDelayMs: 1, maxDelayMs: 2 } })).rejects.toBeInstanceOf(RateLimitError);
    expect(server.requests).toHaveLength(1);
  });

  it('per-call options cannot turn a message or a call into an idempotent request', async () => {
    const sneaky = { idempotent: true, retry: fast } as never;
    const client = routedClient(server.url);
    const sends = [
      () => client.messaging.send({ phoneNumber: PHONE, message: 'x', messageType: 'ARN' }, sneaky),
      () => client.verify.sms({ phoneNumber: PHONE }, sneaky),
      () => client.voice.call({ phoneNumber: PHONE, message: 'x', messageType: 'ARN' }, sneaky),
      () => client.verify.call({ phoneNumber: PHONE }, sneaky),
      () => client.verifyApi.create({ phoneNumber: PHONE }, sneaky),
    ];
    for (const send of sends) {
      server.reset();
      server.script({ status: 503 });
      await expect(send()).rejects.toMatchObject({ status: 503 });
      expect(server.requests).toHaveLength(1);
    }
  });
});

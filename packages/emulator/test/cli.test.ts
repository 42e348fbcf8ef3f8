// Item 5: the CLI, spawned from its build (dist/cli.js) as a user runs it: one line per request
// and per callback attempt, no colours off a terminal, --quiet, --json, one-line errors without a
// stack, --customer checked, --open, and the triggers against a running emulator. Secrets never
// appear in what it prints nor in the journal.
import { basicAuthorization, signRequest } from '@x/auth';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { callbackLine, requestLine } from '../src/cli/format.js';
import { DEFAULT_CUSTOMER, type CallbackView, type JournalEntry, type TransactionView } from '../src/index.js';
import { startEmulator } from '../src/node.js';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const account = { customerId: '22222222-3333-4444-8555-666666666666', apiKey: btoa('a cli secret that must never be printed') };
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[`);
const STACK = /^\s+at /m;

interface Running {
  child: ChildProcess;
  url: string;
  stdout: () => string;
  stderr: () => string;
}

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGTERM');
});

/** Starts the CLI and resolves once it printed where it listens. */
function startCli(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Running> {
  const child = spawn(process.execPath, [cli, '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk) => (out += chunk));
  child.stderr!.on('data', (chunk) => (err += chunk));
  return new Promise((resolve, reject) => {
    const check = () => {
      const match = /listening on (\S+)/.exec(out) ?? /"url":"([^"]+)"/.exec(out);
      if (match) resolve({ child, url: match[1]!, stdout: () => out, stderr: () => err });
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
}

/** Runs the CLI to its end (a trigger, or a start that fails); asynchronously, so that this process's receiver can answer meanwhile. */
function runCli(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.once('close', (status) => resolve({ status, stdout, stderr })));
}

/** Waits until `read()` satisfies `ok`, checking as output arrives (bounded by the test timeout). */
async function until<T>(read: () => T, ok: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = read();
    if (ok(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

let receiver: Server;
let receiverUrl: string;
const callbackHeaders: IncomingHttpHeaders[] = [];
beforeAll(async () => {
  receiver = createServer((req, res) => {
    callbackHeaders.push(req.headers);
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
});
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

async function signed(url: string, method: string, path: string, form?: Record<string, string>, credentials = account) {
  const target = `${url}${path}`;
  const body = form ? new URLSearchParams(form).toString() : undefined;
  const { headers } = signRequest({ method, url: target, ...(body ? { body, contentType: 'application/x-www-form-urlencoded' } : {}) }, credentials);
  const response = await fetch(target, { method, headers, body });
  return { status: response.status, body: (await response.json()) as Record<string, unknown>, authorization: headers.authorization! };
}

describe('one-line errors, no stack trace', () => {
  it('a busy port: exit 1 and one line that says what to do', async () => {
    const taken = await startEmulator();
    try {
      const r = await runCli(['--port', String(taken.port)]);
      expect(r.status).toBe(1);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(new RegExp(`^x-emulator: port ${taken.port} on 127\\.0\\.0\\.1 is already in use.*--port`));
      expect(r.stderr).not.toMatch(STACK);
    } finally {
      await taken.close();
    }
  });

  it('an unknown flag: exit 2 and one line naming it', async () => {
    const r = await runCli(['--frobnicate']);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('x-emulator: unknown option --frobnicate for x-emulator (x-emulator --help lists the options)\n');
    const trigger = await runCli(['advance', '10m', '--frobnicate']);
    expect(trigger.status).toBe(2);
    expect(trigger.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('a --customer key that does not decode: exit 2, the reason, the customer id, never the key', async () => {
    const key = 'not*base64*at*all';
    const r = await runCli(['--customer', `${account.customerId}:${key}`]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/--customer "22222222-3333-4444-8555-666666666666": apiKey is not valid base64/);
    expect(r.stderr).not.toContain(key);
    expect(r.stderr).not.toMatch(STACK);
    expect((await runCli(['--customer', 'no-colon'])).status).toBe(2);
    expect((await runCli(['--customer', `has space:${account.apiKey}`])).stderr).toMatch(/white space/);
  });

  it('bad values and words: --port, an unknown command, a trigger without its arguments', async () => {
    for (const args of [['--port', 'http'], ['--delivery-delay', '-5'], ['frob'], ['advance'], ['advance', 'soon'], ['status', 'abc'], ['resend', 'x'], ['inbound', '--from', '1']]) {
      const r = await runCli(args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.stderr).not.toMatch(STACK);
    }
  });

  it('a trigger with no emulator at --url: exit 1, one line', async () => {
    const r = await runCli(['advance', '10m', '--url', 'http://127.0.0.1:4019']);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^x-emulator: no emulator answers at http:\/\/127\.0\.0\.1:4019 \(ECONNREFUSED\)/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('the log', () => {
  it('one line per request (method, path, status, service code, verdict, ms) and per callback attempt; no colour off a terminal', async () => {
    const run = await startCli(['--customer', `${account.customerId}:${account.apiKey}`, '--callback-url', receiverUrl, '--delivery-delay', '0']);
    await signed(run.url, 'POST', '/v1/messaging', { phone_number: '15555550500', message: 'x', message_type: 'ARN' });
    await signed(run.url, 'GET', '/v1/voice', undefined, { customerId: account.customerId, apiKey: btoa('wrong') });
    const out = await until(run.stdout, (o) => /callback #1/.test(o) && /GET \/v1\/voice/.test(o));
    expect(out).toMatch(/^\d\d:\d\d:\d\d POST \/v1\/messaging 200 290 ok [\d.]+ms$/m);
    expect(out).toMatch(/^\d\d:\d\d:\d\d GET \/v1\/voice 401 10008 signature_mismatch [\d.]+ms/m);
    expect(out).toMatch(new RegExp(`^\\d\\d:\\d\\d:\\d\\d callback #1 -> ${receiverUrl} 204 [\\d.]+ms attempt 1 ref [0-9A-F]{32}$`, 'm'));
    expect(out).not.toMatch(ANSI);
  });

  it('--quiet: the address, no line per request', async () => {
    const run = await startCli(['--quiet']);
    await signed(run.url, 'GET', '/v1/voice');
    await fetch(`${run.url}/_emulator/reset`, { method: 'POST' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(run.stdout()).toMatch(/listening on/);
    expect(run.stdout()).not.toMatch(/\/v1\/voice|_emulator\/reset/);
  });

  it('--json: every line is a JSON object (listening, request, callback)', async () => {
    const run = await startCli(['--json', '--callback-url', receiverUrl, '--delivery-delay', '0']);
    const { customer } = await import('./helpers.js');
    await signed(run.url, 'POST', '/v1/messaging', { phone_number: '15555550501', message: 'x', message_type: 'ARN' }, customer);
    const out = await until(run.stdout, (o) => /"type":"callback"/.test(o));
    const lines = out.trim().split('\n').map((line) => JSON.parse(line) as { type: string });
    expect(lines[0]).toMatchObject({ type: 'listening', url: run.url, cors: false });
    expect(lines.find((l) => l.type === 'request')).toMatchObject({ method: 'POST', path: '/v1/messaging', status: 200, serviceCode: 290, verdict: 'ok' });
    expect(lines.find((l) => l.type === 'callback')).toMatchObject({ id: 1, status: 204, ok: true, attempt: 1 });
  });

  it('colours only when asked for a terminal (the format functions)', () => {
    const entry: JournalEntry = { seq: 1, at: 0, method: 'POST', path: '/v1/messaging', scheme: 'digest', verdict: 'signature_mismatch', status: 401, serviceCode: 10008, ms: 1.5 };
    expect(requestLine(entry, { color: true })).toMatch(ANSI);
    expect(requestLine(entry, { color: false })).not.toMatch(ANSI);
    const attempt = { id: 2, referenceId: 'R', url: 'http://user:pass@127.0.0.1:1/cb', attempt: 1, at: 0, ok: false, error: 'TypeError: fetch failed', payload: {}, headers: {}, bodySha256: '', verifiable: true } as CallbackView;
    expect(callbackLine(attempt, { color: false })).toBe('00:00:00 callback #2 -> http://user:***@127.0.0.1:1/cb failed (TypeError: fetch failed) attempt 1 ref R');
  });
});

describe('secrets never in the output nor the journal', () => {
  it('a --callback-url password is masked in the banner, text and --json', async () => {
    const url = 'http://hook:banner-pass-word@127.0.0.1:9/cb';
    const json = await startCli(['--callback-url', url, '--json', '--quiet']);
    await until(json.stdout, (o) => o.includes('"type":"listening"'));
    expect(json.stdout()).toContain('"callbackUrl":"http://hook:***@127.0.0.1:9/cb"');
    const text = await startCli(['--callback-url', url, '--quiet']);
    await until(text.stdout, (o) => o.includes('  cors:'));
    expect(text.stdout()).toContain('  callbacks:   http://hook:***@127.0.0.1:9/cb');
    for (const run of [json, text]) expect(run.stdout() + run.stderr()).not.toContain('banner-pass-word');
  });

  it('keys, Basic credentials and signatures (requests and callbacks) appear nowhere', async () => {
    callbackHeaders.length = 0;
    const run = await startCli(['--customer', `${account.customerId}:${account.apiKey}`, '--callback-url', receiverUrl, '--delivery-delay', '0', '--json']);
    const secrets: string[] = [account.apiKey];
    const sent = await signed(run.url, 'POST', '/v1/messaging', { phone_number: '15555550502', message: 'x', message_type: 'ARN' });
    secrets.push(sent.authorization, sent.authorization.split(':')[1]!);
    const mismatch = await signed(run.url, 'GET', '/v1/voice', undefined, { customerId: account.customerId, apiKey: btoa('another secret') });
    secrets.push(mismatch.authorization.split(':')[1]!, btoa('another secret'));
    const basic = basicAuthorization(account);
    secrets.push(basic, basic.slice(6));
    await fetch(`${run.url}/v1/voice`, { headers: { authorization: basic } });
    const wrongBasic = basicAuthorization({ customerId: account.customerId, apiKey: btoa('a wrong basic key') });
    secrets.push(wrongBasic.slice(6), btoa('a wrong basic key'));
    await fetch(`${run.url}/v1/voice`, { headers: { authorization: wrongBasic } });
    await until(run.stdout, (o) => /"type":"callback"/.test(o) && (o.match(/"type":"request"/g) ?? []).length >= 4);
    for (const h of callbackHeaders) secrets.push(String(h.authorization), String(h['x-ts-authorization']));
    expect(secrets.length).toBeGreaterThan(8);
    const journal = await (await fetch(`${run.url}/_emulator/journal`)).text();
    const events = await (await fetch(`${run.url}/_emulator/callbacks`)).text();
    for (const secret of secrets) {
      expect(run.stdout(), 'stdout').not.toContain(secret);
      expect(run.stderr(), 'stderr').not.toContain(secret);
      expect(journal, 'journal').not.toContain(secret);
      expect(events, 'callback listing').not.toContain(secret);
    }
    expect(journal).toContain('signature_mismatch');
    expect(journal).toContain('invalid_api_key');
  });

  it('the built-in account\'s key (public) is printed; a given one is not', async () => {
    const { DEFAULT_CUSTOMER } = await import('../src/index.js');
    const builtIn = await startCli([]);
    expect(await until(builtIn.stdout, (o) => /cors:/.test(o))).toContain(DEFAULT_CUSTOMER.apiKey);
    const given = await startCli(['--customer', `${account.customerId}:${account.apiKey}`]);
    await until(given.stdout, (o) => /cors:/.test(o));
    expect(given.stdout()).toContain(account.customerId);
    expect(given.stdout()).not.toContain(account.apiKey);
  });
});

describe('triggers against a running emulator', () => {
  it('inbound, advance, status and resend, each one line (or JSON with --json)', async () => {
    const run = await startCli(['--callback-url', receiverUrl, '--delivery-delay', '600000', '--quiet']);
    const base = ['--url', run.url];
    const inbound = await runCli(['inbound', '--from', '+15555550100', '--to', '15555559999', '--text', 'STOP', ...base]);
    expect(inbound.status).toBe(0);
    expect(inbound.stdout).toMatch(new RegExp(`^inbound SMS from \\+15555550100 to 15555559999: callback to ${receiverUrl} \\(reference id [0-9A-F]{32}\\)\\n$`));

    const { customer } = await import('./helpers.js');
    const sms = await signed(run.url, 'POST', '/v1/messaging', { phone_number: '15555550503', message: 'x', message_type: 'ARN' }, customer);
    const reference = sms.body.reference_id as string;
    const status = await runCli(['status', reference, '207', ...base]);
    expect(status.stdout).toBe(`${reference}: status 207 Error delivering SMS to handset (reason unknown); callback to ${receiverUrl}\n`);
    const refused = await runCli(['status', reference, '290', ...base]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/^x-emulator: 290 is not a final status of an SMS/);

    const advance = await runCli(['advance', '10m', '--json', ...base]);
    expect(JSON.parse(advance.stdout)).toMatchObject({ offsetMs: 600_000 });

    const attempts = (await (await fetch(`${run.url}/_emulator/callbacks`)).json()) as { attempts: Array<{ id: number }> };
    const first = attempts.attempts[0]!.id;
    const resend = await runCli(['resend', String(first), ...base]);
    expect(resend.stdout).toMatch(new RegExp(`^callback #${first} re-sent as #\\d+ to ${receiverUrl}: 204 in [\\d.]+ ms\\n$`));
  });
});

const transactions = async (url: string) => ((await (await fetch(`${url}/_emulator/transactions`)).json()) as { transactions: TransactionView[] }).transactions;

describe('--state', () => {
  it('kill -9 right after the last answer: every answered SMS is there after a restart', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'x-emulator-state-')), 'state.json');
    const first = await startCli(['--state', file, '--delivery-delay', '600000', '--quiet']);
    const refs: string[] = [];
    for (let i = 0; i < 25; i++) {
      const sent = await signed(first.url, 'POST', '/v1/messaging', { phone_number: `1555555${String(1000 + i)}`, message: `hello ${i}`, message_type: 'ARN' }, DEFAULT_CUSTOMER);
      expect(sent.status).toBe(200);
      refs.push(sent.body.reference_id as string);
    }
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));

    const second = await startCli(['--state', file, '--delivery-delay', '600000', '--quiet']);
    await until(second.stdout, (out) => out.includes('  cors:'));
    expect(second.stdout()).toMatch(/state: .* \(25 transactions loaded\)/);
    expect((await transactions(second.url)).map((t) => t.referenceId)).toEqual(refs);
    const outbox = (await (await fetch(`${second.url}/_emulator/outbox`)).json()) as { messages: Array<{ text: string }> };
    expect(outbox.messages.map((m) => m.text)).toEqual(refs.map((_, i) => `hello ${i}`));
    const journal = (await (await fetch(`${second.url}/_emulator/journal?path=/v1/messaging`)).json()) as { entries: unknown[] };
    expect(journal.entries).toHaveLength(25);
    // The restored transactions answer their status to their account, as before the kill.
    expect(((await signed(second.url, 'GET', `/v1/messaging/${refs[0]}`, undefined, DEFAULT_CUSTOMER)).body.status as { code: number }).code).toBe(290);
  });

  it('a file that is not a saved state: refused with what to do, exit 1, the file untouched', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'x-emulator-state-')), 'state.json');
    const corrupt = '{"format":"x-emulator-state","version":1,"savedAt":0,"clockOffsetMs":0,"transactions":[{"kind":"fax"}],"outbox":[],"callbacks":[],"journal":[]}';
    writeFileSync(file, corrupt);
    const refused = await runCli(['--port', '0', '--state', file]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/state\.transactions\[0\]\.kind: must be one of "sms", "verify", "voice"/);
    expect(refused.stderr).toMatch(/left as it is.*move it away/);
    expect(readFileSync(file, 'utf8')).toBe(corrupt);

    writeFileSync(file, '{"format":"x-emulator-st');
    const truncated = await runCli(['--port', '0', '--state', file]);
    expect(truncated.status).toBe(1);
    expect(truncated.stderr).toMatch(/not JSON/);
    expect(readFileSync(file, 'utf8')).toBe('{"format":"x-emulator-st');
  });

});

describe('callback chaos, number scripts and the seed file from the command line', () => {
  it('chaos and script add their rules (one line each); bad steps are one line naming them', async () => {
    const run = await startCli(['--quiet']);
    const base = ['--url', run.url];
    const chaos = await runCli(['chaos', 'duplicate', '--copies', '2', '--number', '1555', '--product', 'messaging', ...base]);
    expect(chaos.stdout).toBe('callback fault added: duplicate for numbers starting 1555 (messaging); 1 fault rule(s) in effect\n');
    const faults = (await (await fetch(`${run.url}/_emulator/faults`)).json()) as { faults: unknown[] };
    expect(faults.faults).toEqual([{ type: 'callback', chaos: 'duplicate', copies: 2, phoneNumber: '1555', product: 'messaging', times: 1 }]);
    const refused = await runCli(['chaos', 'late', '--copies', '2', ...base]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/^x-emulator: copies is for chaos "duplicate" only/);

    const script = await runCli(['script', '1555000*', 'sms:undeliverable', 'call:answered:2s', 'phoneid:VOIP:700', ...base]);
    expect(script.stdout).toBe('script added for 1555000*: sms:undeliverable, call:answered:2s, phoneid:VOIP:700; 1 script(s) in effect\n');
    const numbers = (await (await fetch(`${run.url}/_emulator/numbers`)).json()) as { numbers: unknown[] };
    expect(numbers.numbers).toEqual([{ prefix: '1555000', steps: [{ sms: 'undeliverable' }, { call: 'answered', delayMs: 2000 }, { phoneid: { type: 'VOIP', risk: 700 } }] }]);
    const bad = await runCli(['script', '15555550100', 'call:ringing', ...base]);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/^x-emulator: script\.steps\[0\]\.call: must be one of "answered", "not_answered", "busy"/);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('--config seeds number scripts and fault rules; a bad field is one line with the file and the path', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'x-emulator-config-'));
    const good = join(dir, 'emulator.json');
    writeFileSync(good, JSON.stringify({ numbers: [{ number: '15555550100', steps: [{ sms: 'undeliverable' }] }], faults: [{ type: 'callback', chaos: 'reorder' }] }));
    const run = await startCli(['--config', good, '--quiet']);
    expect(((await (await fetch(`${run.url}/_emulator/numbers`)).json()) as { numbers: unknown[] }).numbers).toHaveLength(1);
    expect(((await (await fetch(`${run.url}/_emulator/faults`)).json()) as { faults: unknown[] }).faults).toEqual([{ type: 'callback', chaos: 'reorder', times: 1 }]);

    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ numbers: [{ number: '15555550100', steps: [{ sms: 'delivered' }, { sms: 'delivered', delayMs: 'soon' }] }] }));
    const refused = await runCli(['--port', '0', '--config', bad]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toBe(`x-emulator: --config ${bad}: numbers[0].steps[1].delayMs: must be a number of milliseconds from 0 to 86400000 (the value given is not shown).\n`);
    // Any file of the machine may be named: its content never reaches the terminal.
    const passwd = await runCli(['--port', '0', '--config', '/etc/passwd']);
    expect(passwd.status).toBe(2);
    expect(passwd.stderr).toBe('x-emulator: --config /etc/passwd is not JSON (at line 1, column 1); it holds {"numbers": [...], "faults": [...]}\n');
  });
});

describe('--rate-limit', () => {
  it('adds a rate fault: past n requests a second of a customer, 429 with Retry-After in the family; a bad value is one line', async () => {
    const run = await startCli(['--customer', `${account.customerId}:${account.apiKey}`, '--rate-limit', '1', '--quiet']);
    expect(((await (await fetch(`${run.url}/_emulator/faults`)).json()) as { faults: unknown[] }).faults).toEqual([{ type: 'rate', perSecond: 1 }]);
    let limited: Awaited<ReturnType<typeof signed>> | undefined;
    for (let n = 0; n < 20 && !limited; n++) {
      const answer = await signed(run.url, 'GET', '/v1/voice');
      if (answer.status === 429) limited = answer;
    }
    expect(limited?.body).toMatchObject({ status: { code: 10019 } });
    for (const value of ['0', 'many', '1.5']) {
      const refused = await runCli(['--port', '0', '--rate-limit', value]);
      expect(refused.status, value).toBe(2);
      expect(refused.stderr.trim().split('\n'), value).toHaveLength(1);
      expect(refused.stderr).toMatch(/--rate-limit/);
    }
  });
});

describe('--open', () => {
  it('opens the inspector with the system\'s opener, detached', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'x-emulator-open-'));
    const log = join(dir, 'opened.txt');
    writeFileSync(join(dir, 'xdg-open'), `#!/bin/sh\necho "$1" > ${JSON.stringify(log)}\n`);
    chmodSync(join(dir, 'xdg-open'), 0o755);
    const run = await startCli(['--open'], { ...process.env, PATH: `${dir}:${process.env.PATH}` });
    const opened = await until(() => {
      try {
        return readFileSync(log, 'utf8');
      } catch {
        return '';
      }
    }, (text) => text !== '');
    expect(opened.trim()).toBe(`${run.url}/_emulator/inspector`);
  });

  it('without an opener: one line with the URL, and the emulator keeps serving', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'x-emulator-noopen-'));
    const run = await startCli(['--open'], { ...process.env, PATH: dir });
    const err = await until(run.stderr, (e) => e.includes('\n'));
    expect(err).toBe(`x-emulator: could not open a browser (xdg-open: not found); open ${run.url}/_emulator/inspector yourself\n`);
    expect((await fetch(`${run.url}/_emulator/clock`)).status).toBe(200);
  });
});

describe('serving', () => {
  it('prints the base URL and the customer id (never a key that was given), and serves signed requests', async () => {
    const customer = { customerId: '11111111-2222-4333-8444-555555555555', apiKey: btoa('cli test key') };
    const run = await startCli(['--customer', `${customer.customerId}:${customer.apiKey}`]);
    const output = await until(run.stdout, (out) => out.includes('api key'));
    expect(output).toContain(customer.customerId);
    expect(output).not.toContain(customer.apiKey);
    const target = `${run.url}/v1/voice`;
    expect((await fetch(target, { headers: signRequest({ method: 'GET', url: target }, customer).headers })).status).toBe(200);
    expect((await fetch(target, { headers: signRequest({ method: 'GET', url: target }, DEFAULT_CUSTOMER).headers })).status).toBe(401);
  });

  it('--control-token: printed at start, required on the control routes', async () => {
    const token = 'cli-control-token-0123456789';
    const run = await startCli(['--control-token', token]);
    expect(await until(run.stdout, (out) => out.includes('control token'))).toContain(`control token: ${token}`);
    expect((await fetch(`${run.url}/_emulator/outbox`)).status).toBe(403);
    expect((await fetch(`${run.url}/_emulator/outbox`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  });
});
